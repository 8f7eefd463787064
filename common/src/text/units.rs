//! Human-readable sizes, as `stats info` and `show_stats` print them.

/// `895 B`, `1.90 KB`, `498.26 KB`, `3.10 MB` (powers of 1024).
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KB", "MB", "GB", "TB", "PB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.2} {}", UNITS[unit])
}

/// `n` and the noun, singular for one: `1 project`, `3 projects`, `0 files`.
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(super::human_size(895), "895 B");
        assert_eq!(super::human_size(1946), "1.90 KB");
        assert_eq!(super::human_size(3 * 1024 * 1024), "3.00 MB");
    }

    #[test]
    fn counts_say_one_in_the_singular() {
        assert_eq!(super::count(1, "project", "projects"), "1 project");
        assert_eq!(super::count(0, "file", "files"), "0 files");
        assert_eq!(super::count(2, "leftover index", "leftover indices"), "2 leftover indices");
    }
}
