package io.ddf.kafka;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Temporary state directories on tmpfs ({@code /dev/shm}) where there is one. TopologyTestDriver commits and
 * checkpoints after every record, and Kafka Streams fsyncs each checkpoint file: on a disk that is milliseconds per
 * record (71 records/s measured on this machine), on tmpfs a no-op, so the tests' time goes to the logic under test.
 */
public final class ShmTempDir implements TempDirFactory
{
    @Override
    public Path createTempDirectory(final AnnotatedElementContext element, final ExtensionContext extension)
        throws IOException
    {
        final Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ?
            Files.createTempDirectory(shm, "ddf-kafka-test") : Files.createTempDirectory("ddf-kafka-test");
    }
}
