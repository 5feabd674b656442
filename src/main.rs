//! The `affray` command line. Only argument parsing, terminals and exit codes live here;
//! everything else is the library.

#![warn(clippy::unwrap_used)]

mod cli;

// Rule scripts allocate and free a value at almost every step; mimalloc runs a fight
// faster than the system allocator (README.md, "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
