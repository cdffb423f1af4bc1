/**
 * Start-up wiring of {@code ddf serve}: {@link io.ddf.ingest.server.DdfServer} builds every part once and hands each what it
 * uses; {@link io.ddf.ingest.server.ServeCommand} parses the options; {@link io.ddf.ingest.server.Transports} holds the
 * event loops and listening sockets; {@link io.ddf.ingest.server.CommandFamilies} registers every command family.
 * Nothing but the command line uses this package (the map of the others: {@code io.ddf.ingest}'s package documentation).
 */
package io.ddf.ingest.server;
