package io.ddf.engine.memory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Loads and stores at absolute addresses, with the memory ordering in each method's name: what {@link MappedWords}
 * and the RedisBloom cuckoo layout need of mapped memory, and nothing more.
 *
 * <p>Why not Agrona's {@code UnsafeAccess}: Agrona 2.x removed it (its {@code UnsafeApi} needs
 * {@code --add-exports java.base/jdk.internal.misc}), and the engine runs with either Agrona line, whichever an
 * application brings. Why not Agrona's {@code UnsafeBuffer}: its offsets are ints, and tables may exceed 2 GiB. Why
 * not VarHandles: Java 17 has none over a raw address (only over a {@code ByteBuffer}, again int-indexed, with checks
 * on every access). So these are {@code sun.misc.Unsafe}'s methods (module {@code jdk.unsupported}, open to every
 * module: no JVM flag), reached through method handles bound once to its instance: the compiler inlines a constant
 * method handle down to the intrinsic, so each call compiles to the one instruction a direct call would
 * ({@code bench/hotpath.sh} measured the same speed), and no source names the class javac warns about.
 */
public final class RawMemory
{
    private static final MethodHandle GET_LONG;
    private static final MethodHandle GET_LONG_VOLATILE;
    private static final MethodHandle PUT_LONG;
    private static final MethodHandle PUT_LONG_RELEASE;
    private static final MethodHandle COMPARE_AND_SET_LONG;
    private static final MethodHandle GET_AND_ADD_LONG;
    private static final MethodHandle GET_BYTE;
    private static final MethodHandle PUT_BYTE;
    private static final MethodHandle SET_MEMORY;

    static
    {
        try
        {
            final Class<?> type = Class.forName("sun.misc.Unsafe");
            final Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            final Object unsafe = field.get(null);
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            final Class<?> l = long.class;
            GET_LONG = bound(lookup, type, unsafe, "getLong", MethodType.methodType(l, l));
            GET_LONG_VOLATILE = bound(lookup, type, unsafe, "getLongVolatile",
                MethodType.methodType(l, Object.class, l));
            PUT_LONG = bound(lookup, type, unsafe, "putLong", MethodType.methodType(void.class, l, l));
            PUT_LONG_RELEASE = bound(lookup, type, unsafe, "putOrderedLong",
                MethodType.methodType(void.class, Object.class, l, l));
            COMPARE_AND_SET_LONG = bound(lookup, type, unsafe, "compareAndSwapLong",
                MethodType.methodType(boolean.class, Object.class, l, l, l));
            GET_AND_ADD_LONG = bound(lookup, type, unsafe, "getAndAddLong",
                MethodType.methodType(l, Object.class, l, l));
            GET_BYTE = bound(lookup, type, unsafe, "getByte", MethodType.methodType(byte.class, l));
            PUT_BYTE = bound(lookup, type, unsafe, "putByte", MethodType.methodType(void.class, l, byte.class));
            SET_MEMORY = bound(lookup, type, unsafe, "setMemory", MethodType.methodType(void.class, l, l, byte.class));
        }
        catch (final ReflectiveOperationException | RuntimeException e)
        {
            throw new ExceptionInInitializerError("ddf needs sun.misc.Unsafe (module jdk.unsupported: add it to a " +
                "jlink'd runtime): " + e);
        }
    }

    private RawMemory()
    {
    }

    private static MethodHandle bound(final MethodHandles.Lookup lookup, final Class<?> type, final Object unsafe,
        final String name, final MethodType methodType) throws ReflectiveOperationException
    {
        return lookup.findVirtual(type, name, methodType).bindTo(unsafe);
    }

    /**
     * @param address an absolute address.
     * @return the long there, read plainly.
     */
    public static long getLongPlain(final long address)
    {
        try
        {
            return (long)GET_LONG.invokeExact(address);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address an absolute address, 8-byte aligned.
     * @return the long there, read with volatile (acquire) semantics.
     */
    public static long getLongVolatile(final long address)
    {
        try
        {
            return (long)GET_LONG_VOLATILE.invokeExact((Object)null, address);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address an absolute address.
     * @param value   stored plainly.
     */
    public static void putLongPlain(final long address, final long value)
    {
        try
        {
            PUT_LONG.invokeExact(address, value);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address an absolute address, 8-byte aligned.
     * @param value   stored with release (ordered) semantics.
     */
    public static void putLongRelease(final long address, final long value)
    {
        try
        {
            PUT_LONG_RELEASE.invokeExact((Object)null, address, value);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address  an absolute address, 8-byte aligned.
     * @param expected the value the long must hold.
     * @param update   the value to install.
     * @return whether it held {@code expected} and now holds {@code update}: a locked compare-and-swap (volatile).
     */
    public static boolean compareAndSetLong(final long address, final long expected, final long update)
    {
        try
        {
            return (boolean)COMPARE_AND_SET_LONG.invokeExact((Object)null, address, expected, update);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address an absolute address, 8-byte aligned.
     * @param delta   added atomically (a locked add, volatile).
     * @return the value before the addition.
     */
    public static long getAndAddLong(final long address, final long delta)
    {
        try
        {
            return (long)GET_AND_ADD_LONG.invokeExact((Object)null, address, delta);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address an absolute address.
     * @return the byte there, read plainly.
     */
    public static byte getBytePlain(final long address)
    {
        try
        {
            return (byte)GET_BYTE.invokeExact(address);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address an absolute address.
     * @param value   stored plainly.
     */
    public static void putBytePlain(final long address, final byte value)
    {
        try
        {
            PUT_BYTE.invokeExact(address, value);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /**
     * @param address an absolute address.
     * @param bytes   how many bytes to set, with plain stores.
     * @param value   the byte each gets.
     */
    public static void setMemory(final long address, final long bytes, final byte value)
    {
        try
        {
            SET_MEMORY.invokeExact(address, bytes, value);
        }
        catch (final Throwable t)
        {
            throw rethrow(t);
        }
    }

    /** Unsafe's methods throw nothing checked: whatever comes is an Error or a RuntimeException, passed on. */
    private static RuntimeException rethrow(final Throwable t)
    {
        if (t instanceof Error)
        {
            throw (Error)t;
        }
        if (t instanceof RuntimeException)
        {
            return (RuntimeException)t;
        }
        return new IllegalStateException(t);
    }
}
