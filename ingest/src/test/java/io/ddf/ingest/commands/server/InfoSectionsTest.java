package io.ddf.ingest.commands.server;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** INFO's section selection over a text with a non-default section, as Redis selects. */
class InfoSectionsTest
{
    private static final String TEXT = "# Server\r\nredis_version:7.0.0\r\n\r\n# Clients\r\nconnected_clients:1\r\n\r\n" +
        "# Commandstats\r\ncmdstat_ping:calls=1\r\n\r\n# Keyspace\r\n";

    @Test
    void defaultLeavesOutCommandstatsAllKeepsIt()
    {
        final String defaults = "# Server\r\nredis_version:7.0.0\r\n\r\n# Clients\r\nconnected_clients:1\r\n\r\n" +
            "# Keyspace\r\n";
        assertEquals(defaults, InfoSections.select(TEXT, List.of()));
        assertEquals(defaults, InfoSections.select(TEXT, List.of("default")));
        assertEquals(TEXT, InfoSections.select(TEXT, List.of("all")));
        assertEquals(TEXT, InfoSections.select(TEXT, List.of("everything")));
        assertEquals("# Commandstats\r\ncmdstat_ping:calls=1\r\n", InfoSections.select(TEXT, List.of("commandstats")));
        assertEquals("# Server\r\nredis_version:7.0.0\r\n\r\n# Keyspace\r\n",
            InfoSections.select(TEXT, List.of("keyspace", "server")));
        assertEquals("", InfoSections.select(TEXT, List.of("nosuch")));
    }
}
