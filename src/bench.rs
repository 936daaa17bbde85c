//! `pbrain-pentad bench`: fixed positions searched to a fixed depth on one thread.

/// Runs the bench with the command-line arguments that follow `bench`; prints its report.
pub fn run(_args: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("bench is not written yet")
}
