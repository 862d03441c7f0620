//! What memory this machine has: its total and what is free now, read from `/proc/meminfo` (Linux).
//! A size that a user may set (the UCI `Hash`, a table) is bounded by these, so that asking for too
//! much is refused with a message instead of ending the process in an abort or the kernel's OOM kill.

/// One line of `/proc/meminfo` (`MemTotal`, `MemAvailable`) in bytes; `None` where there is no such
/// file (not Linux) or line.
fn meminfo_bytes(key: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.split(':').next() == Some(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The machine's memory, if known.
pub fn total_bytes() -> Option<u64> {
    meminfo_bytes("MemTotal")
}

/// The memory that can be taken now without swapping or a kill (the kernel's own estimate), if known.
pub fn available_bytes() -> Option<u64> {
    meminfo_bytes("MemAvailable")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_linux_machine_reports_free_memory_below_its_total() {
        if let (Some(total), Some(free)) = (total_bytes(), available_bytes()) {
            assert!(0 < free && free <= total, "free {free} of {total}");
        }
    }
}
