//! The `rebel-zero` command: parse the command line, run it, and turn any error into a message and
//! exit code 2.

fn main() -> std::process::ExitCode {
    rebel_zero::cli::main()
}
