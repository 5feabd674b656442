//! The `affray` command line. Only argument parsing, terminals and exit codes live here;
//! everything else is the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
