/**
 * The commands over the whole keyspace: KEYS, SCAN, FLUSHALL, FLUSHDB, MEMORY.
 */
package io.ddf.ingest.commands.keyspace;
