/**
 * Log lines: a failure on one line, and a rate-limited line for floods of one kind of event.
 */
package io.ddf.ingest.log;
