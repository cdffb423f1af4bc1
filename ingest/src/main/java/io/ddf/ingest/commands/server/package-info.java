/**
 * The connection and server commands (PING, AUTH, HELLO, CLIENT, CONFIG, INFO, EXISTS, TYPE, DEL, MODULE), MULTI,
 * EXEC and DISCARD, and COMMAND.
 */
package io.ddf.ingest.commands.server;
