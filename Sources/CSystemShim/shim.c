// See include/CSystemShim.h. _GNU_SOURCE for pthread_setname_np, pipe2 and gettid.
#define _GNU_SOURCE
#include <stddef.h>
#include "CSystemShim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <grp.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

int gesturectl_timerfd_create_monotonic(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

int gesturectl_timerfd_arm_absolute(int fd, int64_t seconds, int64_t nanoseconds) {
    struct itimerspec setting;
    memset(&setting, 0, sizeof setting);
    setting.it_value.tv_sec = (time_t)seconds;
    setting.it_value.tv_nsec = (long)nanoseconds;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &setting, NULL);
}

int gesturectl_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

static int fill_set(sigset_t *set, const int *signals, int count) {
    sigemptyset(set);
    for (int index = 0; index < count; index++) {
        if (sigaddset(set, signals[index]) != 0) return -1;
    }
    return 0;
}

int gesturectl_signalfd(const int *signals, int count) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC);
}

int gesturectl_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t count = read(fd, &info, sizeof info);
    if (count < 0) return -1;
    if ((size_t)count != sizeof info) return 0;
    return (int)info.ssi_signo;
}

int gesturectl_thread_signal_mask(int block, const int *signals, int count) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return EINVAL;
    return pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int gesturectl_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0UL, 0UL, 0UL);
}

long gesturectl_get_timer_slack(void) { return (long)prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL); }

int gesturectl_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

int gesturectl_get_thread_name(char *buffer, size_t size) {
    return pthread_getname_np(pthread_self(), buffer, size);
}

int gesturectl_set_realtime_priority(int priority) {
    struct sched_param parameter;
    memset(&parameter, 0, sizeof parameter);
    parameter.sched_priority = priority;
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter);
}

int gesturectl_thread_id(void) { return (int)gettid(); }

int gesturectl_pipe(int fds[2], int nonblocking) { return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0)); }

int gesturectl_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd,
                     int stderr_fd, pid_t *pid) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int result = posix_spawnattr_init(&attributes);
    if (result != 0) return result;
    result = posix_spawn_file_actions_init(&actions);
    if (result != 0) {
        posix_spawnattr_destroy(&attributes);
        return result;
    }
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGHUP);
    result = posix_spawnattr_setsigmask(&attributes, &empty);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (result == 0) result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    int sources[3] = {stdin_fd, stdout_fd, stderr_fd};
    for (int target = 0; target < 3 && result == 0; target++) {
        if (sources[target] >= 0) result = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
    }
    if (result == 0) result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result;
}

int gesturectl_unix_socket(int nonblocking) {
    return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

static int unix_address(const char *path, struct sockaddr_un *address) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof address->sun_path) {
        errno = length == 0 ? EINVAL : ENAMETOOLONG;
        return -1;
    }
    memcpy(address->sun_path, path, length);
    return 0;
}

int gesturectl_unix_bind(int fd, const char *path) {
    struct sockaddr_un address;
    if (unix_address(path, &address) != 0) return -1;
    return bind(fd, (struct sockaddr *)&address, sizeof address);
}

int gesturectl_unix_bind_with_access(int fd, const char *path, unsigned mode, long long group, int *group_taken) {
    struct sockaddr_un address;
    *group_taken = 0;
    if (unix_address(path, &address) != 0) return -1;
    int previous_group = -1;
    if (group >= 0) {
        // setfsgid returns the previous value whether it succeeded or not;
        // an invalid id (-1) only reads the current one.
        previous_group = setfsgid((gid_t)group);
        *group_taken = (unsigned)setfsgid((gid_t)-1) == (unsigned)group;
    }
    // Without the group, the owner's bits only: the caller sets the group,
    // then the mode.
    mode_t birth = (mode_t)((group >= 0 && !*group_taken) ? (mode & 0700) : (mode & 0777));
    int result = -1;
    int saved = 0;
    // The socket inode's mode is the new file's mode before the umask (and
    // its upper bound where a default ACL takes the umask's place).
    if (fchmod(fd, birth) == 0) {
        mode_t previous_mask = umask((mode_t)(~birth & 0777));
        result = bind(fd, (struct sockaddr *)&address, sizeof address);
        saved = errno;
        umask(previous_mask);
    } else {
        saved = errno;
    }
    if (group >= 0) setfsgid((gid_t)previous_group);
    errno = saved;
    return result;
}

int gesturectl_open_path_handle(const char *path) { return open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC); }

int gesturectl_open_folder_at(int folder, const char *name) {
    return openat(folder, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int gesturectl_open_path_handle_at(int folder, const char *name) {
    return openat(folder, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

int gesturectl_is_link_at(int folder, const char *name, unsigned *owner) {
    struct stat status;
    if (fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    *owner = (unsigned)status.st_uid;
    return S_ISLNK(status.st_mode) ? 1 : 0;
}

int gesturectl_chmod_at(int folder, const char *name, unsigned mode) { return fchmodat(folder, name, (mode_t)mode, 0); }

int gesturectl_set_handle_group(int fd, unsigned group) { return fchownat(fd, "", (uid_t)-1, (gid_t)group, AT_EMPTY_PATH); }

int gesturectl_unix_connect(int fd, const char *path) {
    struct sockaddr_un address;
    if (unix_address(path, &address) != 0) return -1;
    return connect(fd, (struct sockaddr *)&address, sizeof address);
}

int gesturectl_notify_send(const char *address, const char *message, size_t length) {
    struct sockaddr_un destination;
    memset(&destination, 0, sizeof destination);
    destination.sun_family = AF_UNIX;
    size_t address_length = strlen(address);
    if (address_length < 2 || (address[0] != '/' && address[0] != '@')) {
        errno = EINVAL;
        return -1;
    }
    if (address_length >= sizeof destination.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(destination.sun_path, address, address_length);
    /* "@name" is Linux's abstract namespace: a NUL first, and the length
       counts the name only. */
    if (address[0] == '@') destination.sun_path[0] = 0;
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + address_length + (address[0] == '/'));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent = sendto(fd, message, length, MSG_NOSIGNAL, (struct sockaddr *)&destination, size);
    int saved = errno;
    close(fd);
    if (sent < 0) {
        errno = saved;
        return -1;
    }
    if ((size_t)sent != length) {
        errno = EMSGSIZE;
        return -1;
    }
    return 0;
}

int gesturectl_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); }

int gesturectl_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = (int)credentials.pid;
    *uid = (unsigned)credentials.uid;
    *gid = (unsigned)credentials.gid;
    return 0;
}

int gesturectl_peer_groups(int fd, unsigned *groups, int capacity) {
    socklen_t length = (socklen_t)(capacity * (int)sizeof(gid_t));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length) != 0) {
        if (errno == ERANGE) return (int)(length / sizeof(gid_t));
        return -1;
    }
    return (int)(length / sizeof(gid_t));
}

int gesturectl_group_id(const char *name, unsigned *gid) {
    struct group entry;
    struct group *found = NULL;
    size_t size = 16384;
    char *buffer = malloc(size);
    if (buffer == NULL) return ENOMEM;
    int result = getgrnam_r(name, &entry, buffer, size, &found);
    if (result == 0 && found == NULL) result = ENOENT;
    if (result == 0) *gid = (unsigned)entry.gr_gid;
    free(buffer);
    return result;
}

int gesturectl_process_groups(unsigned *groups, int capacity) { return getgroups(capacity, (gid_t *)groups); }

int gesturectl_malloc_trim(void) { return malloc_trim(0); }

// The mapping guard (see the header). Slots are claimed with a
// compare-and-swap on `used`; a range is published by storing `base` last,
// and withdrawn by clearing `base` first, so the handler never sees half
// of one. A range is only withdrawn when nothing reads it any more, so the
// handler never answers for memory that is being unmapped.
#include <stdatomic.h>
#include <sys/mman.h>

#define GESTURECTL_GUARD_SLOTS 1024

struct gesturectl_guard_slot {
    atomic_int used;
    atomic_uintptr_t base;
    atomic_size_t length;
    atomic_int changed;
};

static struct gesturectl_guard_slot gesturectl_guard_slots[GESTURECTL_GUARD_SLOTS];
static struct sigaction gesturectl_guard_previous;
static uintptr_t gesturectl_guard_page = 4096;
static pthread_once_t gesturectl_guard_once = PTHREAD_ONCE_INIT;
static int gesturectl_guard_status = 0;

static void gesturectl_guard_handler(int signal, siginfo_t *info, void *context) {
    (void)context;
    // si_code > 0: the kernel's, for a fault at si_addr (not kill or sigqueue).
    if (info != NULL && info->si_code > 0) {
        uintptr_t address = (uintptr_t)info->si_addr;
        for (int index = 0; index < GESTURECTL_GUARD_SLOTS; index++) {
            struct gesturectl_guard_slot *slot = &gesturectl_guard_slots[index];
            uintptr_t base = atomic_load(&slot->base);
            if (base == 0) continue;
            size_t length = atomic_load(&slot->length);
            if (address < base || address - base >= length) continue;
            uintptr_t mask = gesturectl_guard_page - 1;
            uintptr_t page = address & ~mask;
            uintptr_t end = (base + length + mask) & ~mask;
            int saved = errno;
            void *zeros = mmap((void *)page, end - page, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            errno = saved;
            if (zeros == MAP_FAILED) break;
            atomic_store(&slot->changed, 1);
            return;
        }
    }
    // Not ours: the action from before. A fault happens again on return.
    sigaction(signal, &gesturectl_guard_previous, NULL);
    if (info == NULL || info->si_code <= 0) raise(signal);
}

static void gesturectl_guard_install_once(void) {
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0) gesturectl_guard_page = (uintptr_t)page;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = gesturectl_guard_handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &gesturectl_guard_previous) != 0) gesturectl_guard_status = errno;
}

int gesturectl_mapping_guard_install(void) {
    pthread_once(&gesturectl_guard_once, gesturectl_guard_install_once);
    return gesturectl_guard_status;
}

int gesturectl_mapping_guard_register(const void *base, size_t length) {
    if (base == NULL || length == 0) return -1;
    for (int index = 0; index < GESTURECTL_GUARD_SLOTS; index++) {
        struct gesturectl_guard_slot *slot = &gesturectl_guard_slots[index];
        int expected = 0;
        if (!atomic_compare_exchange_strong(&slot->used, &expected, 1)) continue;
        atomic_store(&slot->changed, 0);
        atomic_store(&slot->length, length);
        atomic_store(&slot->base, (uintptr_t)base);
        return index;
    }
    return -1;
}

void gesturectl_mapping_guard_unregister(int slot) {
    if (slot < 0 || slot >= GESTURECTL_GUARD_SLOTS) return;
    atomic_store(&gesturectl_guard_slots[slot].base, 0);
    atomic_store(&gesturectl_guard_slots[slot].length, 0);
    atomic_store(&gesturectl_guard_slots[slot].used, 0);
}

int gesturectl_mapping_guard_changed(int slot) {
    if (slot < 0 || slot >= GESTURECTL_GUARD_SLOTS) return 0;
    return atomic_load(&gesturectl_guard_slots[slot].changed);
}
