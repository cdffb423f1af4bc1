package io.ddf.persistence.platform;

import net.openhft.chronicle.core.UnsafeMemory;

/**
 * Loads and stores at absolute addresses of mapped memory, with the memory ordering in each method's name: what the
 * engine's {@code MappedWords} and the RedisBloom cuckoo layout need, and nothing more.
 *
 * <p>Why not Agrona's {@code UnsafeAccess}: Agrona 2.x removed it (its {@code UnsafeApi} needs
 * {@code --add-exports java.base/jdk.internal.misc}), and the engine runs with either Agrona line, whichever an
 * application brings. Why not Agrona's {@code UnsafeBuffer}: its offsets are ints, and tables may exceed 2 GiB. Why
 * not VarHandles: Java 17 has none over a raw address (only over a {@code ByteBuffer}: int-indexed again, with checks
 * on every access). Why not method handles to {@code sun.misc.Unsafe}: as fast once compiled, but Lincheck's model
 * checker cannot run through them. So these are {@code sun.misc.Unsafe}'s intrinsics, reached through the instance
 * Chronicle Core already holds ({@link UnsafeMemory#UNSAFE}, the same field in Chronicle 2.23 to 2.26): each call
 * compiles to the one instruction Agrona's {@code UnsafeAccess} gave, and no source of ddf names the class javac
 * warns about.
 */
public final class RawMemory
{
    private RawMemory()
    {
    }

    /**
     * @param address an absolute address.
     * @return the long there, read plainly.
     */
    public static long getLongPlain(final long address)
    {
        return UnsafeMemory.UNSAFE.getLong(address);
    }

    /**
     * @param address an absolute address, 8-byte aligned.
     * @return the long there, read with volatile (acquire) semantics.
     */
    public static long getLongVolatile(final long address)
    {
        return UnsafeMemory.UNSAFE.getLongVolatile(null, address);
    }

    /**
     * @param address an absolute address.
     * @param value   stored plainly.
     */
    public static void putLongPlain(final long address, final long value)
    {
        UnsafeMemory.UNSAFE.putLong(address, value);
    }

    /**
     * @param address an absolute address, 8-byte aligned.
     * @param value   stored with release (ordered) semantics.
     */
    public static void putLongRelease(final long address, final long value)
    {
        UnsafeMemory.UNSAFE.putOrderedLong(null, address, value);
    }

    /**
     * @param address  an absolute address, 8-byte aligned.
     * @param expected the value the long must hold.
     * @param update   the value to install.
     * @return whether it held {@code expected} and now holds {@code update}: a locked compare-and-swap (volatile).
     */
    public static boolean compareAndSetLong(final long address, final long expected, final long update)
    {
        return UnsafeMemory.UNSAFE.compareAndSwapLong(null, address, expected, update);
    }

    /**
     * @param address an absolute address, 8-byte aligned.
     * @param delta   added atomically (a locked add, volatile).
     * @return the value before the addition.
     */
    public static long getAndAddLong(final long address, final long delta)
    {
        return UnsafeMemory.UNSAFE.getAndAddLong(null, address, delta);
    }

    /**
     * @param address an absolute address.
     * @return the byte there, read plainly.
     */
    public static byte getBytePlain(final long address)
    {
        return UnsafeMemory.UNSAFE.getByte(address);
    }

    /**
     * @param address an absolute address.
     * @param value   stored plainly.
     */
    public static void putBytePlain(final long address, final byte value)
    {
        UnsafeMemory.UNSAFE.putByte(address, value);
    }

    /**
     * @param address an absolute address.
     * @param bytes   how many bytes to set, with plain stores.
     * @param value   the byte each gets.
     */
    public static void setMemory(final long address, final long bytes, final byte value)
    {
        UnsafeMemory.UNSAFE.setMemory(address, bytes, value);
    }
}
