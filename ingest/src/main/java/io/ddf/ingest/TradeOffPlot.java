package io.ddf.ingest;

import io.ddf.engine.tune.Candidate;
import io.ddf.engine.tune.Tuning;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ddf tune --plot FILE}: the trade-off as an SVG scatter, FNR against FPR (both 0–100 %), the frontier as a
 * line, each kind's best shape as a labelled point, the pick ringed. Written here rather than with the bench
 * module's XChart: ingest must not depend on bench, and an SVG of a few hundred elements needs no library.
 */
final class TradeOffPlot
{
    private static final int WIDTH = 720;
    private static final int HEIGHT = 540;
    private static final int LEFT = 70;
    private static final int RIGHT = 200;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

    private TradeOffPlot()
    {
    }

    static void write(final Path file, final Tuning t) throws IOException
    {
        final StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" " +
            "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
            WIDTH, HEIGHT));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"14\">%s</text>%n", LEFT,
            xml(title(t))));
        axes(s);
        final List<Candidate> frontier = t.frontier();
        final StringBuilder path = new StringBuilder();
        for (final Candidate c : frontier)
        {
            path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x(c.fpr()),
                y(c.fnr())));
        }
        s.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"#999\" stroke-width=\"1.5\"/>\n");
        for (final Candidate c : frontier)
        {
            s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#999\"/>%n",
                x(c.fpr()), y(c.fnr())));
        }
        final List<String> families = new ArrayList<>();
        for (final Candidate c : t.bestPerKind())
        {
            families.add(c.family());
            final String colour = COLOURS[(families.size() - 1) % COLOURS.length];
            s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>%n", x(c.fpr()),
                y(c.fnr()), colour));
            final int ly = TOP + 16 * families.size();
            s.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/><text x=\"%d\" " +
                "y=\"%d\">%s %.1f/%.1f</text>%n", WIDTH - RIGHT + 15, ly - 4, colour, WIDTH - RIGHT + 25, ly,
                xml(c.family()), 100 * c.fpr(), 100 * c.fnr()));
        }
        final Candidate pick = t.pick();
        s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"black\" " +
            "stroke-width=\"2\"/>%n", x(pick.fpr()), y(pick.fnr())));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">ringed: the pick; grey: the frontier " +
            "(%d shapes)</text>%n", WIDTH - RIGHT + 15, TOP + 16 * (families.size() + 2), frontier.size()));
        s.append("</svg>\n");
        Files.writeString(file, s.toString(), StandardCharsets.UTF_8);
    }

    private static String xml(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String title(final Tuning t)
    {
        return "ddf tune: " + t.memoryBits() + " bits, " + t.workload().describe();
    }

    private static void axes(final StringBuilder s)
    {
        final int plotRight = WIDTH - RIGHT;
        final int plotBottom = HEIGHT - BOTTOM;
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" " +
            "stroke=\"black\"/>%n", LEFT, TOP, plotRight - LEFT, plotBottom - TOP));
        for (int p = 0; p <= 100; p += 20)
        {
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>" +
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x(p / 100.0), TOP, x(p / 100.0),
                plotBottom, x(p / 100.0), plotBottom + 16, p));
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>" +
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>%n", LEFT, y(p / 100.0), plotRight,
                y(p / 100.0), LEFT - 6, y(p / 100.0) + 4, p));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">predicted FPR %%</text>%n",
            (LEFT + plotRight) / 2, plotBottom + 40));
        s.append(String.format(Locale.ROOT, "<text x=\"18\" y=\"%d\" transform=\"rotate(-90 18 %d)\" " +
            "text-anchor=\"middle\">predicted FNR %%</text>%n", (TOP + plotBottom) / 2, (TOP + plotBottom) / 2));
    }

    private static double x(final double fpr)
    {
        return LEFT + Math.min(1, Math.max(0, fpr)) * (WIDTH - RIGHT - LEFT);
    }

    private static double y(final double fnr)
    {
        return HEIGHT - BOTTOM - Math.min(1, Math.max(0, fnr)) * (HEIGHT - BOTTOM - TOP);
    }
}
