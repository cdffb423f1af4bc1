/**
 * Linearizability tests (Lincheck 2.34) of the engine's concurrency protocols, kept apart from the functional tests
 * as Disruptor keeps its concurrency tests: the narrow quotient rows (one CAS per row), the wide quotient rows (a
 * lock bit per row), the cuckoo kick chain (table lock and version; narrow and wide buckets), the window family's
 * sequence lock (exact windowed filter) and the DSQF pool (one writer lock).
 *
 * <p>What is checked is what {@code FilterCore} promises for these kinds: {@code stream} is atomic per element, and
 * {@code contains} sees a state some sequential order produced. Each test's sequential specification is the test
 * class itself, that is the same tiny filter used by one thread, so any result no sequential order of the same
 * operations could give fails the test (Lincheck prints the scenario, and in model checking the interleaving).
 * Checked to fail on a broken protocol: with the narrow row's compare-and-swap replaced by a blind add of the
 * decided change, both modes report {@code stream(1): false | stream(1): false} (the model checker with the
 * interleaving: read 0, switch, the other thread's stream, the stale write); with the window seqlock's
 * {@code readValid} always true, model checking reports a {@code contains} that read a half-made eviction. Not
 * mutated: the wide rows, cuckoo and DSQF locks (their tests pass; whether they would catch a broken lock is not
 * shown).
 *
 * <p>These run in a surefire execution of their own ({@code lincheck}, in a JVM of its own: Lincheck's agent rewrites
 * classes, which the allocation tests must not see); skip them with {@code -Dddf.lincheck.skip=true}, run them alone
 * with {@code -Dtest='io.ddf.engine.concurrent.*Test' -Dsurefire.failIfNoSpecifiedTests=false}. No JVM flags beyond
 * the parent pom's are needed on Java 17 (they already open {@code java.base/java.lang} and {@code java.util}); the
 * "Sharing is only supported for boot loader classes" JVM warning comes from Lincheck's byte-buddy agent appending
 * itself to the boot class path and is harmless.
 */
package io.ddf.engine.concurrent;
