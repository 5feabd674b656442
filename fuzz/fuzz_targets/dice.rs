#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| affray_fuzz::dice(data));
