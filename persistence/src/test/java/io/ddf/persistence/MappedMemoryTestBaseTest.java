package io.ddf.persistence;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** The leak check must actually catch a leak. */
class MappedMemoryTestBaseTest extends MappedMemoryTestBase
{
    @Test
    void aFileLeftOpenFailsTheLeakCheck(final TestInfo info)
    {
        final FilterFile leaked = FilterFile.create(null, TestFiles.smallSpec());
        try
        {
            assertThrows(AssertionError.class, this::assertMappedMemoryReleased);
        }
        finally
        {
            leaked.close();
            enableMappedMemoryTracing(info); // so the real @AfterEach check starts clean
        }
    }
}
