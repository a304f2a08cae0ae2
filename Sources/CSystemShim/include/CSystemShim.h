// The few Linux calls that Swift's Glibc module does not import (timerfd,
// eventfd and signalfd live in headers outside the module; prctl is
// variadic; pthread_setname_np needs _GNU_SOURCE), wrapped as plain C
// functions with fixed signatures. Constants come from the system headers,
// never from numbers typed here. Each function keeps the call's own error
// convention (-1 and errno, or an errno value) and is documented by the
// call it wraps; the Swift module OperatingSystem turns them into errors.
#ifndef GESTURECTL_CSYSTEMSHIM_H
#define GESTURECTL_CSYSTEMSHIM_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

/// timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK); -1 and errno.
int gesturectl_timerfd_create_monotonic(void);

/// timerfd_settime(fd, TFD_TIMER_ABSTIME, {it_value = seconds.nanoseconds}):
/// one expiry at an absolute CLOCK_MONOTONIC time; -1 and errno.
int gesturectl_timerfd_arm_absolute(int fd, int64_t seconds, int64_t nanoseconds);

/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); -1 and errno.
int gesturectl_eventfd(void);

/// signalfd(-1, mask, SFD_CLOEXEC) for the signals in `signals[0..<count]`
/// (blocking reads); -1 and errno (EINVAL for a bad signal number).
int gesturectl_signalfd(const int *signals, int count);

/// Reads one struct signalfd_siginfo from `fd`; returns the signal number,
/// 0 when the read was short (should not happen), or -1 and errno.
int gesturectl_signalfd_read(int fd);

/// pthread_sigmask(how, {signals}, NULL) for the calling thread, `how` being
/// 0 to block and 1 to unblock; returns 0 or an errno value.
int gesturectl_thread_signal_mask(int block, const int *signals, int count);

/// prctl(PR_SET_TIMERSLACK, nanoseconds) for the calling thread; -1 and errno.
int gesturectl_set_timer_slack(unsigned long nanoseconds);

/// prctl(PR_GET_TIMERSLACK) for the calling thread; -1 and errno.
long gesturectl_get_timer_slack(void);

/// pthread_setname_np(pthread_self(), name) (at most 15 bytes: the kernel's
/// TASK_COMM_LEN); returns 0 or an errno value.
int gesturectl_set_thread_name(const char *name);

/// pthread_getname_np(pthread_self(), buffer, size); 0 or an errno value.
int gesturectl_get_thread_name(char *buffer, size_t size);

/// pthread_setschedparam(pthread_self(), SCHED_FIFO, {priority}); 0 or an
/// errno value (EPERM without CAP_SYS_NICE or an rtprio limit).
int gesturectl_set_realtime_priority(int priority);

/// The kernel's thread id (gettid), for /proc/self/task/TID.
int gesturectl_thread_id(void);

/// pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0)); -1 and errno.
int gesturectl_pipe(int fds[2], int nonblocking);

/// posix_spawn of `path` with `argv` and `envp` (NULL-terminated), the
/// child's signal mask emptied and SIGPIPE, SIGINT, SIGTERM, SIGHUP set back
/// to their default actions (a parent that blocks or ignores them must not
/// pass that on); standard streams from `stdin_fd`/`stdout_fd`/`stderr_fd`
/// (-1: inherit). Returns 0 and the pid, or an errno value.
int gesturectl_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd,
                     int stderr_fd, pid_t *pid);

/// socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0); -1 and errno.
int gesturectl_unix_socket(int nonblocking);

/// bind(fd, {AF_UNIX, path}); -1 and errno (ENAMETOOLONG when `path` does
/// not fit sun_path).
int gesturectl_unix_bind(int fd, const char *path);

/// bind(fd, {AF_UNIX, path}) so that the socket file is born with the
/// permission bits `mode` and, when `group` is not -1 and the caller may
/// take it as its file-system group, the group `group` (*group_taken set to
/// 1; else 0, and the file is born with the owner's bits of `mode` only):
/// fchmod(fd, mode) and umask(~mode & 0777) around the bind (Linux gives
/// the new file the socket inode's mode less the umask), and
/// setfsgid(group) for the calling thread only. The umask and file-system
/// group are put back before returning. -1 and errno as for bind.
int gesturectl_unix_bind_with_access(int fd, const char *path, unsigned mode, long long group, int *group_taken);

/// open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC): a handle on the file itself
/// (a symbolic link is not followed), for fstat and fchownat; -1 and errno.
int gesturectl_open_path_handle(const char *path);

/// openat(folder, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC): a
/// handle on the folder `name` in the folder `folder` (AT_FDCWD: -100; an
/// absolute `name` ignores it), never through a symbolic link (ENOTDIR or
/// ELOOP for one); -1 and errno.
int gesturectl_open_folder_at(int folder, const char *name);

/// openat(folder, name, O_PATH | O_NOFOLLOW | O_CLOEXEC): a handle on the
/// file `name` itself in the folder `folder` (a symbolic link is not
/// followed), for fstat and fchownat; -1 and errno.
int gesturectl_open_path_handle_at(int folder, const char *name);

/// fstatat(folder, name, AT_SYMLINK_NOFOLLOW): 1 when `name` in `folder` is
/// a symbolic link (its owner in *owner), 0 when it is something else, or
/// -1 and errno.
int gesturectl_is_link_at(int folder, const char *name, unsigned *owner);

/// fchmodat(folder, name, mode, 0): the mode of `name` in `folder`, for
/// where /proc is not mounted; -1 and errno.
int gesturectl_chmod_at(int folder, const char *name, unsigned mode);

/// fchownat(fd, "", -1, group, AT_EMPTY_PATH): the group of the file an
/// O_PATH handle names, never of a path; -1 and errno.
int gesturectl_set_handle_group(int fd, unsigned group);

/// connect(fd, {AF_UNIX, path}); -1 and errno (ENAMETOOLONG as for bind).
int gesturectl_unix_connect(int fd, const char *path);

/// One datagram `message` to the service manager's `address` (NOTIFY_SOCKET:
/// a path, or "@name" in the abstract namespace) from a new AF_UNIX
/// SOCK_DGRAM socket, the sd_notify(3) protocol; 0, or -1 and errno
/// (EINVAL for an address that is neither).
int gesturectl_notify_send(const char *address, const char *message, size_t length);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); -1 and errno.
int gesturectl_accept(int fd);

/// getsockopt(SO_PEERCRED): the peer's pid, uid and gid; -1 and errno.
int gesturectl_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid);

/// getsockopt(SO_PEERGROUPS): up to `capacity` supplementary group ids of
/// the peer; returns their count (which may exceed `capacity`: call again
/// with more room), or -1 and errno.
int gesturectl_peer_groups(int fd, unsigned *groups, int capacity);

/// The id of group `name` (getgrnam_r): 0 and the id, ENOENT when there is
/// no such group, or another errno value.
int gesturectl_group_id(const char *name, unsigned *gid);

/// The supplementary groups of the calling process (getgroups): their count,
/// or -1 and errno.
int gesturectl_process_groups(unsigned *groups, int capacity);

/// Gives the heap's free memory back to the system (malloc_trim(0)): 1 when
/// some was released.
int gesturectl_malloc_trim(void);

/// Guards read-only file mappings against SIGBUS, which the kernel sends
/// when a mapped page lies past the file's end (another program cut the
/// file short while it was mapped). Installs, once for the process, a
/// SIGBUS handler (sigaction, SA_SIGINFO | SA_ONSTACK) that, for a fault in
/// a registered range, maps anonymous zero pages (mmap MAP_FIXED |
/// MAP_PRIVATE | MAP_ANONYMOUS, PROT_READ) from the faulting page to the
/// range's end, marks the range changed and returns: the read sees zeros.
/// Any other SIGBUS gets the action that was there before (put back, the
/// signal raised again when it was sent, the fault repeated when it was
/// one). Returns 0 or an errno value (sigaction's).
int gesturectl_mapping_guard_install(void);

/// Registers `length` bytes at `base` (a mapping) with the guard; returns
/// the slot (0 or more), or -1 when all slots are taken (1,024). Lock-free,
/// async-signal-safe.
int gesturectl_mapping_guard_register(const void *base, size_t length);

/// Forgets the range in `slot` (call before unmapping it). Async-signal-safe.
void gesturectl_mapping_guard_unregister(int slot);

/// 1 when a fault in `slot`'s range was answered with zero pages since it
/// was registered, else 0.
int gesturectl_mapping_guard_changed(int slot);

#endif
