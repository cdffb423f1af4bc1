package io.ddf.persistence;

/**
 * Quiets Chronicle before its classes load, in the tests (the engine sets no system property: the daemon's
 * {@code Main} sets these two for the {@code ddf} command, an embedding application decides for itself). Chronicle Bytes/Core 2.26ea1 themselves neither print a banner nor
 * send analytics (nothing in them calls {@code Announcer} or {@code AnalyticsFacade}); other Chronicle libraries
 * that may share the classpath (Map, Queue) do both unless {@code chronicle.announcer.disable} and
 * {@code chronicle.analytics.disable} are set, so they are set here. A value set on the command line wins.
 * Chronicle's remaining output is SLF4J logging at INFO ("Chronicle core loaded from ...", "Took N ms to add
 * mapping ..."), left to the application's logging configuration.
 */
final class ChronicleSettings
{
    private ChronicleSettings()
    {
    }

    /** Sets the quieting properties that are not already set. Idempotent. */
    static void apply()
    {
        setIfAbsent("chronicle.announcer.disable", "true");
        setIfAbsent("chronicle.analytics.disable", "true");
    }

    private static void setIfAbsent(final String name, final String value)
    {
        if (System.getProperty(name) == null)
        {
            System.setProperty(name, value);
        }
    }
}
