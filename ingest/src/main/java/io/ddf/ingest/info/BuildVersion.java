package io.ddf.ingest.info;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version Maven wrote into {@code io/ddf/ingest/version.properties} at build time: what {@code --version} and
 * INFO's {@code ddf_version} report. Here, below the command line ({@code io.ddf.ingest}, whose
 * {@code VersionProvider} reads it from here), so that the server names no class of the command line that starts it.
 */
public final class BuildVersion
{
    private static final String RESOURCE = "/io/ddf/ingest/version.properties";

    private BuildVersion()
    {
    }

    /**
     * @return the version, e.g. {@code 0.1.0-SNAPSHOT}, or {@code (unknown version)} when the build wrote none.
     * @throws IOException when the resource cannot be read.
     */
    public static String version() throws IOException
    {
        final Properties properties = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE))
        {
            if (in != null)
            {
                properties.load(in);
            }
        }
        return properties.getProperty("version", "(unknown version)");
    }
}
