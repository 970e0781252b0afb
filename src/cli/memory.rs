//! The memory a multi-box search may hold: by default a quarter of the
//! machine's physical memory, shared between the levels solved at once, and
//! never more than the machine has, whatever `--max-memory` asks (a search
//! that outgrows physical memory swaps or is killed, and loses its answer).

/// Share of physical memory the default limit takes (numerator, denominator).
const DEFAULT_SHARE: (u64, u64) = (1, 4);

/// The limit in bytes for each of `jobs` levels solved at once, and a
/// warning when the request was more than the machine has. `physical` is
/// the machine's memory in bytes, when known.
pub fn limit(requested_mb: Option<u64>, physical: Option<u64>, jobs: u64) -> (u64, Option<String>) {
    let jobs = jobs.max(1);
    let Some(physical) = physical else {
        let mb = requested_mb.unwrap_or(sokoban::multi::DEFAULT_MAX_MEMORY_MB as u64);
        return (mb.saturating_mul(1 << 20), None);
    };
    match requested_mb {
        None => (physical / DEFAULT_SHARE.1 * DEFAULT_SHARE.0 / jobs, None),
        Some(mb) if mb.saturating_mul(jobs).saturating_mul(1 << 20) > physical => {
            let each = physical / jobs;
            let warning = format!(
                "warning: --max-memory {mb} MB{} is more than this machine's {} MB; using {} MB",
                if jobs > 1 {
                    format!(" for each of {jobs} jobs")
                } else {
                    String::new()
                },
                physical >> 20,
                each >> 20
            );
            (each, Some(warning))
        }
        Some(mb) => (mb << 20, None),
    }
}

/// The machine's physical memory in bytes, from `/proc/meminfo` (Linux).
pub fn physical() -> Option<u64> {
    proc_kb("/proc/meminfo", "MemTotal:")
}

/// The process's resident memory in bytes, from `/proc/self/status` (Linux).
pub fn resident() -> Option<u64> {
    proc_kb("/proc/self/status", "VmRSS:")
}

/// A `KEY: n kB` line of a `/proc` file, in bytes.
fn proc_kb(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: u64 = 1 << 30;

    #[test]
    fn the_default_is_a_quarter_of_physical_memory_shared_by_jobs() {
        assert_eq!(limit(None, Some(24 * GB), 1), (6 * GB, None));
        assert_eq!(limit(None, Some(24 * GB), 3), (2 * GB, None));
        assert_eq!(limit(None, None, 1).0, 4096 << 20);
    }

    #[test]
    fn a_request_beyond_the_machine_is_clamped_with_a_warning() {
        assert_eq!(limit(Some(256), Some(24 * GB), 1), (256 << 20, None));
        let (bytes, warning) = limit(Some(100_000), Some(24 * GB), 1);
        assert_eq!(bytes, 24 * GB);
        assert_eq!(
            warning.unwrap(),
            "warning: --max-memory 100000 MB is more than this machine's 24576 MB; using 24576 MB"
        );
        let (bytes, warning) = limit(Some(10_000), Some(24 * GB), 4);
        assert_eq!(bytes, 6 * GB);
        assert!(warning.unwrap().contains("10000 MB for each of 4 jobs"));
        // Unknown machine: the request as given.
        assert_eq!(limit(Some(100_000), None, 1), (100_000 << 20, None));
    }

    #[test]
    fn this_machine_reports_its_memory() {
        if cfg!(target_os = "linux") {
            assert!(physical().unwrap() > 1 << 20);
        }
    }
}
