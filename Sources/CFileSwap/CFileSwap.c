#define _GNU_SOURCE
#include "CFileSwap.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

int sitegen_open_folder_for_lookup(int parent, const char *path) {
#ifdef O_PATH
    return openat(parent, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
    return openat(parent, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
}

int sitegen_exchange_paths(const char *a, const char *b) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
    (void)a; (void)b;
    errno = ENOSYS;
    return -1;
#endif
}

#include <spawn.h>
#include <sys/wait.h>
extern char **environ;

int sitegen_remove_in_background(const char *path) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    if (posix_spawnattr_init(&attributes) != 0) return -1;
#ifdef POSIX_SPAWN_SETSID
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
#endif
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    // Nothing else of this process (a server's socket, say) stays open in rm.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    // The shell starts rm in the background and exits at once; rm is then nobody's child
    // to wait for, and outlives this process.
    char *const argv[] = {"sh", "-c", "rm -rf -- \"$1\" &", "sh", (char *)path, NULL};
    pid_t shell;
    int result = posix_spawn(&shell, "/bin/sh", &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (result != 0) {
        errno = result;
        return -1;
    }
    int status = 0;
    while (waitpid(shell, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int sitegen_is_mount_root(const char *path) {
#if defined(__linux__) && defined(STATX_ATTR_MOUNT_ROOT)
    struct statx info;
    if (statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &info) == 0 && (info.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)) {
        return (info.stx_attributes & STATX_ATTR_MOUNT_ROOT) ? 1 : 0;
    }
#else
    (void)path;
#endif
    return -1;
}
