package io.ddf.bench.jmh;

/**
 * The JVM flags every forked benchmark JVM needs: ddf's module flags (a forked JMH JVM runs from the class path, so
 * the jar manifest's Add-Exports/Add-Opens do not apply) and Agrona without bounds checks, as in production.
 *
 * <p>Each flag is a compile-time constant because {@code @Fork(jvmArgsAppend = ...)} takes only constants, so the
 * module flags are written out here a second time; {@code JmhJvmFlagsTest} fails when they differ from
 * {@code jvm-flags.properties}, their one list (each flag's reason is there).
 */
public final class JvmFlags
{
    /** Chronicle Bytes: mapped-file internals. */
    public static final String EXPORT_NIO = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    /** Agrona 2.x: jdk.internal.misc.Unsafe. */
    public static final String EXPORT_MISC = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    /** Chronicle Core: its ByteBuffer cleaner, quiet. */
    public static final String EXPORT_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    /** Chronicle Core: reflection. */
    public static final String OPEN_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    /** ddf: a file's descriptor number. */
    public static final String OPEN_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    /** Agrona buffers without bounds checks. */
    public static final String AGRONA_NO_BOUNDS_CHECKS = "-Dagrona.disable.bounds.checks=true";

    private JvmFlags()
    {
    }

    /** @return every flag, in the order {@code @Fork} appends them. */
    public static String[] all()
    {
        return new String[] {EXPORT_NIO, EXPORT_MISC, EXPORT_REF, OPEN_REFLECT, OPEN_IO, AGRONA_NO_BOUNDS_CHECKS};
    }
}
