#ifndef CFILESWAP_H
#define CFILESWAP_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE).
/// Returns 0 on success, -1 with errno set otherwise (ENOSYS/EINVAL where unsupported).
int sitegen_exchange_paths(const char *a, const char *b);

#endif
