package io.ddf.bench.jmh;

/**
 * The JVM flags every forked benchmark JVM needs: Chronicle Bytes' exports and opens on Java 17 (the same list as
 * the parent pom's {@code ddf.jvm.flags}; a forked JMH JVM runs from the class path, so the jar manifest's
 * Add-Exports/Add-Opens do not apply) and Agrona without bounds checks, as in production.
 *
 * <p>Each flag is a compile-time constant because {@code @Fork(jvmArgsAppend = ...)} takes only constants; this
 * class is the one place that lists them ({@link ForkedBenchmark} uses them).
 */
public final class JvmFlags
{
    /** Chronicle Bytes: cleaner access. */
    public static final String EXPORT_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    /** Chronicle Bytes: mapped-file internals. */
    public static final String EXPORT_NIO = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    /** Chronicle Bytes: Unsafe. */
    public static final String EXPORT_MISC = "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED";
    /** Chronicle's compiler helper. */
    public static final String EXPORT_JAVAC_FILE = "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED";
    /** Chronicle's compiler helper. */
    public static final String OPEN_JAVAC = "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED";
    /** Chronicle reflection. */
    public static final String OPEN_LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    /** Chronicle reflection. */
    public static final String OPEN_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    /** Chronicle reflection. */
    public static final String OPEN_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    /** Chronicle reflection. */
    public static final String OPEN_UTIL = "--add-opens=java.base/java.util=ALL-UNNAMED";
    /** Agrona buffers without bounds checks. */
    public static final String AGRONA_NO_BOUNDS_CHECKS = "-Dagrona.disable.bounds.checks=true";

    private JvmFlags()
    {
    }

    /** @return every flag, in the order {@code @Fork} appends them. */
    public static String[] all()
    {
        return new String[] {EXPORT_REF, EXPORT_NIO, EXPORT_MISC, EXPORT_JAVAC_FILE, OPEN_JAVAC, OPEN_LANG,
            OPEN_REFLECT, OPEN_IO, OPEN_UTIL, AGRONA_NO_BOUNDS_CHECKS};
    }
}
