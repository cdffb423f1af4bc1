package io.ddf.engine;

import io.ddf.engine.spi.KindDefinition;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API's kinds and the definitions below it agree, though the layers below name kinds only by header code: the
 * codes are the file format's and the names the command line's, as they were when the enum held both.
 */
class FilterKindTest
{
    /** Header codes, in enum order, as files written by every earlier version hold them. */
    private static final int[] FORMAT_CODES = {1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
        30};

    @Test
    void codesAreTheFileFormats()
    {
        final FilterKind[] kinds = FilterKind.values();
        assertEquals(FORMAT_CODES.length, kinds.length);
        for (int i = 0; i < kinds.length; i++)
        {
            assertEquals(FORMAT_CODES[i], kinds[i].code(), kinds[i].name());
            assertEquals(kinds[i], FilterKind.fromCode(FORMAT_CODES[i]));
        }
        assertThrows(IllegalArgumentException.class, () -> FilterKind.fromCode(7));
    }

    @Test
    void namesAreTheCommandLinesAndEachKindHasItsDefinition()
    {
        for (final FilterKind kind : FilterKind.values())
        {
            assertEquals(kind.name().toLowerCase(Locale.ROOT).replace('_', '-'), kind.cliName());
            final KindDefinition definition = kind.definition();
            assertNotNull(definition, kind.name());
            assertEquals(kind.code(), definition.code());
            assertEquals(kind.cliName(), definition.name());
            if (kind != FilterKind.QUEUE)
            {
                assertEquals(kind, FilterKind.fromName(kind.cliName().toUpperCase(Locale.ROOT)));
            }
        }
        assertThrows(IllegalArgumentException.class, () -> FilterKind.fromName("queue"));
    }

    @Test
    void optionsNameTheKindsThatTakeThem()
    {
        assertTrue(FilterKind.options().get("fingerprint-bits").getValue().contains(FilterKind.QHT));
        assertFalse(FilterKind.options().get("fingerprint-bits").getValue().contains(FilterKind.BLOOM));
        assertTrue(FilterKind.options().get("subfilters").getValue().contains(FilterKind.QUEUE));
    }
}
