/**
 * Users and TLS, made once at start-up, and the ACL check the conductor asks before every command.
 */
package io.ddf.ingest.security;
