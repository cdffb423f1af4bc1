package io.ddf.persistence.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The JVM module flags ddf needs, checked at first use (creating or opening a filter file) before Chronicle touches
 * what they grant: a JVM started without one gets an error naming each missing flag, why it is needed and where the
 * list comes from, instead of Chronicle's {@code ExceptionInInitializerError} or {@code IllegalAccessError}.
 *
 * <p>The list is {@code jvm-flags.properties} at the root of the repository, copied into this jar by the build (the
 * one list: {@code bin/ddf jvm-flags} prints it, the poms derive the tests' and the jars' flags from it).
 */
public final class JvmFlags
{
    private static final String RESOURCE = "jvm-flags.properties";
    /** What is missing, or null: computed once, the flags of a running JVM cannot change. */
    private static final String MISSING = missing(JvmFlags.class.getModule());

    private JvmFlags()
    {
    }

    /**
     * @throws IllegalStateException naming every flag this JVM lacks, and why each is needed.
     */
    public static void require()
    {
        if (MISSING != null)
        {
            throw new IllegalStateException(MISSING);
        }
    }

    /**
     * @return the flags in command-line form ({@code --add-exports=java.base/sun.nio.ch=ALL-UNNAMED}, ...), exports
     *         then opens, as {@code bin/ddf jvm-flags} prints them.
     */
    public static List<String> commandLine()
    {
        final Properties list = list();
        final List<String> flags = new ArrayList<>();
        for (final String kind : List.of("exports", "opens"))
        {
            for (final String target : targets(list, kind))
            {
                flags.add("--add-" + kind + "=" + target + "=ALL-UNNAMED");
            }
        }
        return flags;
    }

    /**
     * @param module the module the flags must reach (this jar's: the unnamed module on a class path).
     * @return one line per flag it lacks, or null when it has them all.
     */
    static String missing(final Module module)
    {
        final Properties list = list();
        final StringBuilder missing = new StringBuilder();
        for (final String kind : List.of("exports", "opens"))
        {
            for (final String target : targets(list, kind))
            {
                final int slash = target.indexOf('/');
                final String moduleName = target.substring(0, slash);
                final String pkg = target.substring(slash + 1);
                final String when = list.getProperty("ddf.when." + target);
                if (when != null && !present(when) || list.getProperty("ddf.quiet." + target) != null)
                {
                    continue;
                }
                final Module owner = ModuleLayer.boot().findModule(moduleName).orElse(null);
                final boolean granted = owner != null &&
                    (kind.equals("exports") ? owner.isExported(pkg, module) : owner.isOpen(pkg, module));
                if (!granted)
                {
                    missing.append("\n  --add-").append(kind).append('=').append(target)
                        .append(module.isNamed() ? "=" + module.getName() : "=ALL-UNNAMED").append(": ")
                        .append(owner == null ? "module " + moduleName + " is not in this runtime (add it to a " +
                            "jlink'd image); " : "").append(list.getProperty("ddf.why." + target, ""));
                }
            }
        }
        return missing.length() == 0 ? null : "ddf needs JVM flags this JVM was started without (bin/ddf jvm-flags " +
            "prints them all; docs/embedding.md says why each):" + missing;
    }

    private static boolean present(final String className)
    {
        try
        {
            Class.forName(className, false, JvmFlags.class.getClassLoader());
            return true;
        }
        catch (final ClassNotFoundException | LinkageError absent)
        {
            return false;
        }
    }

    private static String[] targets(final Properties list, final String kind)
    {
        final String value = list.getProperty("ddf.add." + kind, "").trim();
        return value.isEmpty() ? new String[0] : value.split("\\s+");
    }

    private static Properties list()
    {
        final Properties list = new Properties();
        try (InputStream in = JvmFlags.class.getResourceAsStream(RESOURCE))
        {
            if (in == null)
            {
                throw new IllegalStateException(RESOURCE + " is missing from the ddf-persistence jar: a broken build");
            }
            list.load(in);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return list;
    }
}
