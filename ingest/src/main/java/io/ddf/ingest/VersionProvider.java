package io.ddf.ingest;

import io.ddf.ingest.info.BuildVersion;
import picocli.CommandLine.IVersionProvider;

import java.io.IOException;

/** {@code --version}: the version Maven wrote at build time ({@link BuildVersion}). */
public final class VersionProvider implements IVersionProvider
{
    /** @return one line, {@code ddf <version>}. */
    @Override
    public String[] getVersion() throws IOException
    {
        return new String[] {"ddf " + BuildVersion.version()};
    }
}
