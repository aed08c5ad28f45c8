// Types for fs-native-extensions 1.5 (it ships none): the two lock calls the ledger lock uses.
// On Linux these are open-file-description locks, fcntl(F_OFD_SETLK), over [offset, offset+length).
declare module 'fs-native-extensions' {
  interface LockOptions {
    /** A shared (read) lock instead of an exclusive (write) one. */
    shared?: boolean;
  }
  const fsx: {
    /** Returns true when granted, false when another open file description holds a conflicting lock. */
    tryLock(fd: number, offset?: number, length?: number, options?: LockOptions): boolean;
    unlock(fd: number, offset?: number, length?: number): void;
  };
  export default fsx;
}
