package org.sparkmc.spark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The reports' line chart: round distinct axis labels, a non-negative axis from 0, legend, layer order. */
class ChartTest {
    private static final Pattern Y_LABEL = Pattern.compile("class=\"ya\">([^<]*)<");
    private static final Pattern X_LABEL = Pattern.compile("class=\"xa\">([^<]*)<");

    @Test
    void rhatChartHasDistinctRoundLabels() {
        String svg = new Chart("max R-hat", 420, 200).xLabel("draws per chain")
                .line(new double[] {10000, 20000, 30000}, new double[] {1.0107, 1.0063, 1.0041}, "#000", "max R-hat")
                .level(1.01, "#777", "threshold").svg();
        List<String> y = labels(Y_LABEL, svg);
        assertEquals(new HashSet<>(y).size(), y.size(), y.toString());
        assertEquals(List.of("1.004", "1.005", "1.006", "1.007", "1.008", "1.009", "1.010", "1.011"), y);
        assertEquals(List.of("10000", "15000", "20000", "25000", "30000"), labels(X_LABEL, svg));
    }

    /** The lda time chart went down to "−0.0013": a non-negative quantity's axis starts at 0. */
    @Test
    void nonNegativeAxisStartsAtZero() {
        String svg = new Chart("seconds per step", 900, 220).yFromZero()
                .line(new double[] {1, 2, 3}, new double[] {0.0021, 0.0153, 0.0102}, "#000", "sampling").svg();
        List<String> y = labels(Y_LABEL, svg);
        assertEquals("0.000", y.get(0));
        assertFalse(y.stream().anyMatch(l -> l.startsWith("-")), y.toString());
    }

    @Test
    void legendNamesTheLabelledLayersOnly() {
        String svg = new Chart("t", 600, 300).line(new double[] {0, 1}, new double[] {0, 1}, "#111", "mean")
                .line(new double[] {0, 1}, new double[] {1, 0}, "#222", null)
                .band(new double[] {0, 1}, new double[] {0, 0}, new double[] {1, 1}, "#333", "±2 sd").svg();
        assertTrue(svg.contains("class=\"legend\""), svg);
        assertTrue(svg.contains("class=\"lg\">mean<") && svg.contains("class=\"lg\">±2 sd<"), svg);
        assertEquals(2, svg.split("class=\"lg\"").length - 1);
        assertFalse(new Chart("t", 600, 300).line(new double[] {0, 1}, new double[] {0, 1}, "#111", null).svg()
                .contains("legend"));
    }

    /** Layers are drawn in the order added: a band first, its line over it, a dashed line on top. */
    @Test
    void layersAreDrawnInTheOrderAdded() {
        double[] x = {0, 1, 2};
        String svg = new Chart("t", 600, 300).band(x, new double[] {0, 1, 2}, new double[] {2, 3, 4}, "#0072B2", null)
                .line(x, new double[] {1, 2, 3}, "#0072B2", null).dashed(x, new double[] {1, 2, 3}, "#E69F00", null)
                .svg();
        int band = svg.indexOf("<polygon fill=\"#0072B2\" fill-opacity=\"0.3\"");
        int line = svg.indexOf("<polyline fill=\"none\" stroke=\"#0072B2\"");
        int dashed = svg.indexOf("<polyline fill=\"none\" stroke=\"#E69F00\" stroke-width=\"1.5\" "
                + "stroke-dasharray");
        assertTrue(band > 0 && band < line && line < dashed, svg);
    }

    /**
     * One value per round: with a single round a line alone would draw nothing, so each point gets a dot, and the
     * threshold spans the plot (drawn between the first and last round, it had no length and did not show).
     */
    @Test
    void markedPointsShowASingleRound() {
        String svg = new Chart("max R-hat", 420, 200).markPoints()
                .line(new double[] {5000}, new double[] {1.057}, "#0072B2", null)
                .level(1.01, "#777", "threshold").svg();
        assertEquals(1, svg.split("<circle ").length - 1, svg);
        Matcher level = Pattern.compile("stroke=\"#777\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\" "
                + "points=\"([0-9.]+),([0-9.]+) ([0-9.]+),([0-9.]+)\"").matcher(svg);
        assertTrue(level.find(), svg);
        assertEquals(level.group(2), level.group(4));
        assertTrue(Double.parseDouble(level.group(3)) - Double.parseDouble(level.group(1)) > 300, svg);
        assertFalse(new Chart("t", 420, 200).line(new double[] {1, 2}, new double[] {1, 2}, "#000", null).svg()
                .contains("<circle"));
    }

    @Test
    void histogramBarsStandOnZero() {
        String svg = new Chart("density", 600, 360).yFromZero()
                .histogram(new double[] {0, 1, 2}, new double[] {0.25, 0.5}, null).svg();
        assertEquals(2, svg.split("<rect x=").length - 2, svg);
        assertEquals(0, Double.parseDouble(labels(Y_LABEL, svg).get(0)));
    }

    static List<String> labels(Pattern p, String svg) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(svg);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
