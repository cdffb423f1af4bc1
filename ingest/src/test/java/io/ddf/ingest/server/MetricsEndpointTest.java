package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --metrics-port}: a Prometheus scrape of the daemon's filters and commands, in the text format. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MetricsEndpointTest
{
    @TempDir
    Path dir;

    private static String scrape(final int port) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
            response.headers()::toString);
        return response.body();
    }

    private static double sample(final String text, final String series)
    {
        final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
        assertTrue(m.find(), () -> series + " not in:\n" + text);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void scrapeShowsFiltersAndCommands() throws Exception
    {
        try (TestServer server = new TestServer(dir.resolve("data"), c ->
        {
            TestServer.forget(c); // ddf_filter_elements and ddf_filter_duplicates: fixed-size filters' counters
            c.metricsPort = 0;
        });
             RespClient c = server.client())
        {
            final int port = server.server.metricsPort();
            assertTrue(port > 0);
            assertEquals("OK", c.call("BF.RESERVE", "clicks", "0.01", "1000"));
            assertEquals(java.util.List.of(1L, 1L, 0L, 1L), c.call("BF.MADD", "clicks", "a", "b", "a", "c"));
            assertEquals(1L, c.call("BF.ADD", "clicks", "d"));
            assertEquals(0L, c.call("BF.ADD", "clicks", "d"));
            c.call("BF.ADD", "clicks");   // wrong arity
            final String text = scrape(port);
            assertEquals(6, sample(text, "ddf_filter_elements_total{filter=\"clicks\"}"));
            assertEquals(2, sample(text, "ddf_filter_duplicates_total{filter=\"clicks\"}"));
            final double fill = sample(text, "ddf_filter_fill{filter=\"clicks\",kind=\"fifo-bloom\"}");
            assertTrue(fill > 0 && fill < 0.5, "4 of 1000 items leave the filter nearly empty: " + fill);
            final double fpr = sample(text, "ddf_filter_predicted_fpr{filter=\"clicks\"}");
            assertTrue(fpr >= 0 && fpr <= 0.01, "at 4 items of 1000 the predicted FPR is under the 1 % asked: " + fpr);
            assertTrue(sample(text, "ddf_filter_bytes{filter=\"clicks\"}") > 0);
            assertEquals(2, sample(text, "ddf_commands_total{command=\"bf.add\"}"));
            assertEquals(1, sample(text, "ddf_commands_total{command=\"bf.madd\"}"));
            assertEquals(1, sample(text, "ddf_command_errors_total{command=\"bf.add\",reason=\"rejected\"}"));
            assertEquals(2, sample(text, "ddf_command_duration_seconds_count{command=\"bf.add\"}"));
            assertEquals(2, sample(text, "ddf_command_duration_seconds_bucket{command=\"bf.add\",le=\"+Inf\"}"));
            assertTrue(sample(text, "ddf_command_duration_seconds_sum{command=\"bf.add\"}") > 0);
            assertEquals(1, sample(text, "ddf_connected_clients"));
            assertTrue(server.log().contains("metrics on http://127.0.0.1:" + port + "/metrics"), server.log());

            assertEquals(1L, c.call("DEL", "clicks"));
            assertTrue(!scrape(port).contains("filter=\"clicks\""), "a deleted filter's series are gone");
        }
    }

    /**
     * INFO's {@code filters:}/{@code elements:} and the {@code ddf_filter_*} series count every filter the daemon
     * serves: the filters that grow, which a missing key gets by default, as well as ddf's fixed-size ones. A filter
     * that grows counts the items it holds (BF.INFO's "Number of items inserted": it keeps no count of duplicates).
     */
    @Test
    void everyFilterIsCountedTheDefaultOnesToo() throws Exception
    {
        try (TestServer server = new TestServer(dir.resolve("data"), c -> c.metricsPort = 0);
             RespClient c = server.client())
        {
            assertEquals(1L, c.call("BF.ADD", "grows", "a"));
            assertEquals(1L, c.call("BF.ADD", "grows", "b"));
            assertEquals(0L, c.call("BF.ADD", "grows", "a"));
            assertEquals(1L, c.call("CF.ADD", "cuckoo", "x"));
            assertEquals("OK", c.call("BF.RESERVE", "fixed", "0.01", "1000", "KIND", "fifo-bloom"));
            assertEquals(java.util.List.of(1L, 0L), c.call("BF.MADD", "fixed", "z", "z"));
            final String info = (String)c.call("INFO", "stats");
            assertTrue(info.contains("filters:3\r\n"), info);
            assertTrue(info.contains("elements:5\r\n"), "2 + 1 items held, 2 streamed into the fixed one: " + info);
            assertTrue(info.contains("duplicates:1\r\n"), info);
            assertTrue(info.contains("unseen:4\r\n"), info);
            final String text = scrape(server.server.metricsPort());
            assertEquals(2, sample(text, "ddf_filter_elements_total{filter=\"grows\"}"));
            assertEquals(1, sample(text, "ddf_filter_elements_total{filter=\"cuckoo\"}"));
            assertEquals(2, sample(text, "ddf_filter_elements_total{filter=\"fixed\"}"));
            assertEquals(1, sample(text, "ddf_filter_duplicates_total{filter=\"fixed\"}"));
            assertTrue(sample(text, "ddf_filter_bytes{filter=\"grows\"}") > 0);
            assertTrue(sample(text, "ddf_filter_bytes{filter=\"cuckoo\"}") > 0);
        }
    }

    @Test
    void offByDefault()
    {
        try (TestServer server = new TestServer(dir.resolve("data"), c -> { }))
        {
            assertEquals(-1, server.server.metricsPort());
            assertNull(server.server.metrics());
        }
    }
}
