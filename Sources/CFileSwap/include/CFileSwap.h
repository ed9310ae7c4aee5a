#ifndef CFILESWAP_H
#define CFILESWAP_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (ENOSYS/EINVAL where unsupported).
int sitegen_exchange_paths(const char *a, const char *b);

/// Starts `rm -rf -- path` in a new session, detached: it runs on after this process exits.
/// Returns 0 once it is started, -1 with errno set otherwise.
int sitegen_remove_in_background(const char *path);

/// Opens a folder for looking files up in it only (Linux O_PATH, else read-only), relative
/// to the folder `parent` (or AT_FDCWD). Returns a descriptor, or -1 with errno set.
int sitegen_open_folder_for_lookup(int parent, const char *path);

/// Whether `path` is the root of a mount, bind mounts included (Linux statx,
/// STATX_ATTR_MOUNT_ROOT): 1 or 0, or -1 where the kernel or C library cannot tell.
int sitegen_is_mount_root(const char *path);

#endif
