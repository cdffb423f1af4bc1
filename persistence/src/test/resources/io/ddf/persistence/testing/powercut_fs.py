#!/usr/bin/python3
"""powercut_fs: a pass-through FUSE file system that loses what was not synced when the power is cut.

The method of Jepsen's LazyFS (a FUSE file system with its own page cache that writes data to the backing file
system only when the application syncs it, and drops it on a "clear-cache" fault), written for ddf's tests:

  * Every WRITE not yet made durable is kept in a volatile layer in this process's memory, per inode, in pages of
    4 KiB; reads see the volatile layer over the backing file. An FSYNC (fsync, fdatasync, msync(MS_SYNC) of a
    mapping, which the kernel sends as the WRITEs of the dirty pages then an FSYNC) writes the inode's volatile
    pages into the backing directory, the durable layer. A file opened with O_SYNC/O_DSYNC writes through.
  * A close is not a sync: FLUSH and RELEASE keep the volatile layer.
  * Dirty pages of a MAP_SHARED mapping reach this process only at writeback or msync; after the process that
    wrote them is killed, the kernel may still write them back. So a power cut, from the harness, is: kill the
    process under test; send "cut" on the control socket, which drops the volatile layer and from then on
    discards every WRITE, FSYNC and size change (they succeed and change nothing); unmount; start a new instance
    on the same backing directory, which sees the durable layer only.
  * Directory operations (create, link, rename, unlink, mkdir, chmod, ...) and truncation go to the backing
    directory at once, i.e. they are durable as soon as they return: this harness tests the loss of file data,
    not of directory entries (ddf forces its directories anyway).
  * fallocate is refused: fusepy's libfuse 2 binding has no fallocate entry, so the kernel answers EOPNOTSUPP
    to the caller. This is the file system without fallocate that ddf's preallocation is tested on.
  * st_blocks of a file with unsynced pages past its durable end counts those pages as allocated (a real file
    system reserves blocks for delayed allocation); the rest is the backing file's st_blocks, so a sparse file
    shows as sparse.

Control socket (one line a command, one line a reply): "ping", "stats" (JSON counters), "cut".
Usage: powercut_fs.py BACKING MOUNTPOINT --control SOCKET [--debug]
"""
import argparse
import errno
import json
import os
import socket
import stat
import sys
import threading

try:
    import fusepy as fuse  # Debian's python3-fusepy
except ImportError:  # pragma: no cover - a pip install of fusepy names the module fuse
    import fuse

PAGE = 4096


class Volatile:
    """One inode's writes that are not durable yet."""

    def __init__(self, size):
        self.pages = {}  # page index -> bytearray(PAGE)
        self.size = size  # the size readers see


class PowerCutFs(fuse.Operations):
    use_ns = True

    def __init__(self, root):
        self.root = os.path.realpath(root)
        # Not called lock: fusepy takes any attribute named after an operation for that operation, and without
        # a lock operation the kernel keeps POSIX locks itself (which is what ddf's one-writer lock needs).
        self.mutex = threading.RLock()
        self.volatile = {}  # (st_dev, st_ino) -> Volatile
        self.handles = {}  # fh -> {'key': (dev, ino), 'sync': bool}
        self.opens = {}  # (dev, ino) -> open handles
        self.cut = False
        self.stats = {'writes': 0, 'bytes_written': 0, 'fsyncs': 0, 'pages_made_durable': 0,
                      'pages_dropped_at_cut': 0, 'discarded_after_cut': 0, 'write_through': 0}

    # ---- helpers

    def _real(self, path):
        return os.path.join(self.root, path.lstrip('/'))

    @staticmethod
    def _key(st):
        return (st.st_dev, st.st_ino)

    def _volatile_for(self, fh):
        handle = self.handles[fh]
        key = handle['key']
        vol = self.volatile.get(key)
        if vol is None:
            vol = Volatile(os.fstat(fh).st_size)
            self.volatile[key] = vol
        return vol

    def _page(self, fh, vol, index):
        page = vol.pages.get(index)
        if page is None:
            page = bytearray(os.pread(fh, PAGE, index * PAGE).ljust(PAGE, b'\0'))
            # bytes of the backing file past the size readers see are not there for them
            end = vol.size - index * PAGE
            if end < PAGE:
                page[max(end, 0):] = bytes(PAGE - max(end, 0))
            vol.pages[index] = page
        return page

    def _make_durable(self, fh, key):
        vol = self.volatile.pop(key, None)
        if vol is None:
            return
        for index in sorted(vol.pages):
            start = index * PAGE
            if start >= vol.size:
                continue
            data = vol.pages[index][:min(PAGE, vol.size - start)]
            os.pwrite(fh, bytes(data), start)
            self.stats['pages_made_durable'] += 1
        if os.fstat(fh).st_size != vol.size:
            os.ftruncate(fh, vol.size)

    @staticmethod
    def _attrs(st):
        return {name: getattr(st, name) for name in (
            'st_mode', 'st_nlink', 'st_uid', 'st_gid', 'st_size', 'st_blocks', 'st_atime_ns', 'st_mtime_ns',
            'st_ctime_ns', 'st_ino')} | {'st_atime': st.st_atime_ns, 'st_mtime': st.st_mtime_ns,
                                         'st_ctime': st.st_ctime_ns}

    # ---- metadata, passed through

    def getattr(self, path, fh=None):
        with self.mutex:
            st = os.fstat(fh.fh) if fh and fh.fh in self.handles else os.lstat(self._real(path))
            attrs = self._attrs(st)
            vol = self.volatile.get(self._key(st)) if stat.S_ISREG(st.st_mode) else None
            if vol is not None:
                attrs['st_size'] = vol.size
                beyond = sum(1 for index in vol.pages if index * PAGE >= st.st_size and index * PAGE < vol.size)
                attrs['st_blocks'] = st.st_blocks + beyond * (PAGE // 512)
            return attrs

    def access(self, path, amode):
        if not os.access(self._real(path), amode):
            raise fuse.FuseOSError(errno.EACCES)
        return 0

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._real(path))

    def readlink(self, path):
        return os.readlink(self._real(path))

    def mknod(self, path, mode, dev):
        return os.mknod(self._real(path), mode, dev)

    def mkdir(self, path, mode):
        return os.mkdir(self._real(path), mode)

    def rmdir(self, path):
        return os.rmdir(self._real(path))

    def symlink(self, target, source):
        return os.symlink(source, self._real(target))

    def link(self, target, source):
        return os.link(self._real(source), self._real(target))

    def rename(self, old, new):
        return os.rename(self._real(old), self._real(new))

    def unlink(self, path):
        with self.mutex:
            real = self._real(path)
            st = os.lstat(real)
            os.unlink(real)
            key = self._key(st)
            if st.st_nlink <= 1 and not self.opens.get(key):
                self.volatile.pop(key, None)
            return 0

    def chmod(self, path, mode):
        return os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        return os.chown(self._real(path), uid, gid)

    def utimens(self, path, times=None):
        return os.utime(self._real(path), ns=times) if times else os.utime(self._real(path))

    def statfs(self, path):
        sv = os.statvfs(self._real(path))
        return {name: getattr(sv, name) for name in (
            'f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail', 'f_ffree', 'f_files', 'f_flag', 'f_frsize',
            'f_namemax')}

    # ---- files

    def _register(self, fd, flags):
        st = os.fstat(fd)
        key = self._key(st)
        self.handles[fd] = {'key': key, 'sync': bool(flags & (os.O_SYNC | os.O_DSYNC))}
        self.opens[key] = self.opens.get(key, 0) + 1
        return key

    @staticmethod
    def _backing_flags(flags):
        # always read-write, so that a sync through any handle can write the volatile pages; the kernel has
        # checked the caller's access mode already
        drop = os.O_ACCMODE | os.O_APPEND | os.O_TRUNC | getattr(os, 'O_DIRECT', 0) | os.O_CREAT | os.O_EXCL
        return (flags & ~drop) | os.O_RDWR

    def open(self, path, fi):
        with self.mutex:
            fd = os.open(self._real(path), self._backing_flags(fi.flags))
            self._register(fd, fi.flags)
            fi.fh = fd
            fi.keep_cache = 1
            return 0

    def create(self, path, mode, fi):
        with self.mutex:
            flags = os.O_CREAT | os.O_RDWR | (fi.flags & os.O_EXCL)
            fd = os.open(self._real(path), flags, mode)
            key = self._register(fd, fi.flags)
            # a new inode may reuse the number of a deleted one: nothing of that one's is pending for it
            if self.opens[key] == 1:
                self.volatile.pop(key, None)
            fi.fh = fd
            return 0

    def read(self, path, size, offset, fi):
        with self.mutex:
            fh = fi.fh
            vol = self.volatile.get(self.handles[fh]['key'])
            if vol is None:
                return os.pread(fh, size, offset)
            end = min(offset + size, vol.size)
            if end <= offset:
                return b''
            out = bytearray(os.pread(fh, end - offset, offset).ljust(end - offset, b'\0'))
            durable_size = os.fstat(fh).st_size
            if durable_size < end:
                # bytes past the durable end that no pending page covers read as zeros
                out[max(durable_size - offset, 0):] = bytes(end - max(durable_size, offset))
            for index in range(offset // PAGE, (end - 1) // PAGE + 1):
                page = vol.pages.get(index)
                if page is None:
                    continue
                start = max(index * PAGE, offset)
                stop = min(index * PAGE + PAGE, end)
                out[start - offset:stop - offset] = page[start - index * PAGE:stop - index * PAGE]
            return bytes(out)

    def write(self, path, data, offset, fi):
        with self.mutex:
            fh = fi.fh
            if self.cut:
                self.stats['discarded_after_cut'] += 1
                return len(data)
            self.stats['writes'] += 1
            self.stats['bytes_written'] += len(data)
            handle = self.handles[fh]
            if handle['sync'] and handle['key'] not in self.volatile:
                self.stats['write_through'] += 1
                return os.pwrite(fh, data, offset)
            vol = self._volatile_for(fh)
            position = 0
            while position < len(data):
                index = (offset + position) // PAGE
                within = (offset + position) % PAGE
                count = min(PAGE - within, len(data) - position)
                page = self._page(fh, vol, index)
                page[within:within + count] = data[position:position + count]
                position += count
            vol.size = max(vol.size, offset + len(data))
            if handle['sync']:
                self._make_durable(fh, handle['key'])
            return len(data)

    def truncate(self, path, length, fi=None):
        with self.mutex:
            if self.cut:
                self.stats['discarded_after_cut'] += 1
                return 0
            if fi and fi.fh in self.handles:
                fd, own = fi.fh, False
            else:
                fd, own = os.open(self._real(path), os.O_RDWR), True
            try:
                key = self._key(os.fstat(fd))
                vol = self.volatile.get(key)
                if vol is not None:
                    for index in [i for i in vol.pages if i * PAGE >= length]:
                        del vol.pages[index]
                    last = vol.pages.get(length // PAGE)
                    if last is not None:
                        last[length % PAGE:] = bytes(PAGE - length % PAGE)
                    vol.size = length
                os.ftruncate(fd, length)
            finally:
                if own:
                    os.close(fd)
            return 0

    def flush(self, path, fi):
        return 0  # close(2) does not make anything durable

    def fsync(self, path, datasync, fi):
        with self.mutex:
            if self.cut:
                self.stats['discarded_after_cut'] += 1
                return 0
            self.stats['fsyncs'] += 1
            self._make_durable(fi.fh, self.handles[fi.fh]['key'])
            return 0

    def fsyncdir(self, path, datasync, fi):
        return 0  # directory operations are durable already

    def release(self, path, fi):
        with self.mutex:
            fh = fi.fh
            handle = self.handles.pop(fh, None)
            if handle is not None:
                key = handle['key']
                self.opens[key] -= 1
                if self.opens[key] == 0:
                    del self.opens[key]
                    if os.fstat(fh).st_nlink == 0:
                        self.volatile.pop(key, None)
            os.close(fh)
            return 0

    # ---- the fault

    def power_cut(self):
        with self.mutex:
            self.cut = True
            dropped = sum(len(vol.pages) for vol in self.volatile.values())
            self.stats['pages_dropped_at_cut'] += dropped
            self.volatile.clear()
            return dropped

    def pending_pages(self):
        with self.mutex:
            return sum(len(vol.pages) for vol in self.volatile.values())


def serve_control(fs, path):
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # bound under another name and renamed once listening: the name appears only when a connect can succeed
    for name in (path, path + '.binding'):
        if os.path.exists(name):
            os.unlink(name)
    server.bind(path + '.binding')
    server.listen(4)
    os.rename(path + '.binding', path)
    while True:
        connection, _ = server.accept()
        with connection, connection.makefile('rw') as stream:
            for line in stream:
                command = line.strip()
                if command == 'ping':
                    reply = 'ok'
                elif command == 'cut':
                    reply = 'ok dropped %d pages' % fs.power_cut()
                elif command == 'stats':
                    with fs.mutex:
                        reply = json.dumps(dict(fs.stats, pending_pages=fs.pending_pages(), cut=fs.cut))
                else:
                    reply = 'error unknown command %r' % command
                stream.write(reply + '\n')
                stream.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('backing')
    parser.add_argument('mountpoint')
    parser.add_argument('--control', required=True, help='Unix socket for ping, stats and cut')
    parser.add_argument('--debug', action='store_true')
    args = parser.parse_args()
    fs = PowerCutFs(args.backing)
    control = threading.Thread(target=serve_control, args=(fs, args.control), daemon=True)
    control.start()
    # raw_fi: open and create need the caller's flags (O_SYNC), and open sets keep_cache. kernel_cache keeps the
    # page cache across opens (this mount is the only way to the files), big_writes lets writes be 128 KiB.
    fuse.FUSE(fs, args.mountpoint, foreground=True, nothreads=False, raw_fi=True, debug=args.debug,
              fsname='powercutfs', big_writes=True, max_write=131072, kernel_cache=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
