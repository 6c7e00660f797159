package org.sparkmc.spark.bn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The bn report's bar chart: value labels clear of the exact-value tick and the whisker, round ticks to 1. */
class BarChartTest {
    private static final Pattern VALUE = Pattern.compile("<text x=\"[^\"]+\" y=\"([^\"]+)\" class=\"xa\">");
    private static final Pattern EXACT = Pattern.compile("stroke=\"#000\" stroke-width=\"2\"/>");
    private static final Pattern EXACT_Y = Pattern.compile("y1=\"([^\"]+)\" y2=\"[^\"]+\" stroke=\"#000\"");
    private static final Pattern WHISKER_TOP = Pattern.compile("<path d=\"M[^ ]+ [^V]+V([^M]+)M");

    /** The reviewer's case: the estimate next to the exact value put its label on the exact tick. */
    @Test
    void valueLabelsSitAboveTheExactTickAndTheWhisker() {
        QueryResult q = new QueryResult("LVFAILURE", new String[] {"TRUE", "FALSE"}, new double[] {0.0512, 0.9488},
                new double[] {0.0004, 0.0004}, new double[] {1e6, 1e6}, null, new double[] {0.0515, 0.9485});
        String svg = BarChart.render(q);
        List<Double> labels = numbers(VALUE, svg);
        List<Double> ticks = numbers(EXACT_Y, svg);
        List<Double> whiskers = numbers(WHISKER_TOP, svg);
        assertEquals(2, labels.size(), svg);
        assertEquals(2, ticks.size(), svg);
        assertEquals(2, whiskers.size(), svg);
        for (int s = 0; s < 2; s++) {
            double highest = Math.min(ticks.get(s), whiskers.get(s));
            assertTrue(labels.get(s) <= highest - BarChart.LABEL_GAP + 1e-9,
                    "label baseline " + labels.get(s) + " vs marks at " + highest + ": " + svg);
            assertTrue(labels.get(s) - 9 >= 20, "label inside the plot: " + svg);
        }
        assertTrue(EXACT.matcher(svg).find());
        assertTrue(svg.contains("class=\"ya\">1.0<") && !svg.contains("class=\"ya\">1.2<"),
                "round ticks, none above 1: " + svg);
    }

    private static List<Double> numbers(Pattern p, String svg) {
        List<Double> out = new ArrayList<>();
        Matcher m = p.matcher(svg);
        while (m.find()) {
            out.add(Double.parseDouble(m.group(1)));
        }
        return out;
    }
}
