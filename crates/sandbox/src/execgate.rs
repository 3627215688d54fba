//! One exec, and no other: how a program run is kept from starting anything but itself.
//!
//! A program run needs exactly one exec, the child's `fexecve` of the submission, and no
//! seccomp filter can tell it from a later one (execveat's path is in memory, where BPF
//! cannot look, and an absolute path ignores the descriptor). Landlock alone is not enough
//! either: the dynamic loader must be executable for the program to start, and
//! `/lib64/ld-linux-x86-64.so.2 /bin/sh` runs any readable binary through it. So the child
//! installs, last, a filter that hands every `execve`/`execveat` to the worker (seccomp user
//! notification, [`super::layers::supervise_exec`]); the worker takes the listener from the
//! child with `pidfd_getfd` once the child is ready, lets the first exec of the child itself
//! through (labgrade's own: no student code has run yet), and refuses every other one: the
//! run is killed and `forbidden`. The listener is close-on-exec, so the program never holds
//! it and cannot answer for itself.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// The worker's side of one run's exec supervision.
#[derive(Debug, Default)]
pub struct ExecGate {
    listener: Option<OwnedFd>,
    first_done: bool,
    /// The exec the gate refused (its system call number), if any.
    pub refused: Option<i64>,
}

impl ExecGate {
    /// Takes the child's listener (`fd` in the child) through its pidfd.
    pub fn attach(&mut self, pidfd: RawFd, fd: RawFd) -> std::io::Result<()> {
        // SAFETY: pidfd_getfd on our own child's pidfd; the result is a new descriptor of
        // ours (close-on-exec by the kernel's choice).
        let got = unsafe { libc::syscall(libc::SYS_pidfd_getfd, pidfd, fd, 0) };
        if got < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: a descriptor we own from here.
        self.listener = Some(unsafe { OwnedFd::from_raw_fd(got as RawFd) });
        Ok(())
    }

    /// True once the listener has been taken.
    pub fn attached(&self) -> bool {
        self.listener.is_some()
    }

    /// The listener to poll, once attached.
    pub fn fd(&self) -> Option<RawFd> {
        self.listener.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// Stops watching (the listener hung up: no process of the run is left to exec).
    pub fn detach(&mut self) {
        self.listener = None;
    }

    /// Answers one pending exec of `child`'s run. Returns true when the exec was refused
    /// (the caller kills the run).
    pub fn answer(&mut self, child: libc::pid_t) -> bool {
        let Some(fd) = self.fd() else {
            return false;
        };
        // SAFETY: a zeroed seccomp_notif (the kernel requires zeroes) filled by the ioctl.
        let mut req: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        // SAFETY: the ioctl writes one seccomp_notif into `req`.
        if unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_RECV, &mut req) } != 0 {
            // The exec's caller died meanwhile (ENOENT), or a spurious wakeup.
            return false;
        }
        let first = !self.first_done && req.pid as libc::pid_t == child;
        let mut resp = libc::seccomp_notif_resp {
            id: req.id,
            val: 0,
            error: 0,
            flags: 0,
        };
        if first {
            self.first_done = true;
            resp.flags = libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32;
        } else {
            resp.error = -libc::EPERM;
            self.refused = Some(i64::from(req.data.nr));
        }
        // SAFETY: the ioctl reads one seccomp_notif_resp.
        unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_SEND, &mut resp) };
        !first
    }
}
