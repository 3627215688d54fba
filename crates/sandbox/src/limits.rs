//! Resource limits applied inside the child before any student code runs.

use labgrade_spec::Limits;

fn set(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
    let rl = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: plain syscall with a valid struct.
    if unsafe { libc::setrlimit(resource, &rl) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// This process's address space size, read from `/proc/self/statm` through a descriptor
/// opened once (a worker reads it before every fork).
#[derive(Debug)]
pub struct VmSize(std::fs::File);

impl VmSize {
    /// Opens `/proc/self/statm`.
    pub fn open() -> std::io::Result<VmSize> {
        std::fs::File::open("/proc/self/statm").map(VmSize)
    }

    /// The address space's size in bytes now (0 if it cannot be read).
    pub fn bytes(&self) -> u64 {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 128];
        let n = self.0.read_at(&mut buf, 0).unwrap_or(0);
        let pages: u64 = std::str::from_utf8(&buf[..n])
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse().ok())
            .unwrap_or(0);
        // SAFETY: plain sysconf.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        pages * u64::try_from(page).unwrap_or(4096)
    }
}

/// Applies the limits. `address_space` is the total AS limit in bytes (the caller adds what
/// the child already uses for a dlopen run). The CPU hard limit is one second above the soft
/// one, so SIGXCPU comes first and SIGKILL only if it is ignored.
pub fn apply(limits: &Limits, address_space: u64, stack: Option<u64>) -> std::io::Result<()> {
    set(libc::RLIMIT_CORE, 0, 0)?;
    set(
        libc::RLIMIT_CPU,
        limits.cpu_seconds,
        limits.cpu_seconds.saturating_add(1),
    )?;
    let out = limits.output_kb.saturating_mul(1024);
    set(libc::RLIMIT_FSIZE, out, out)?;
    set(libc::RLIMIT_AS, address_space, address_space)?;
    if let Some(s) = stack {
        set(libc::RLIMIT_STACK, s, s)?;
    }
    Ok(())
}
