package org.sparkmc.spark.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.Thresholds;

/** The report page's pieces: the chain-colour key and the summary table's layout. */
class HtmlReportTest {

    /** With more chains than colours, the chains that share a colour are listed under one swatch. */
    @Test
    void chainLegendListsEveryChainBesideItsColour() {
        String html = HtmlReport.chainLegend(16);
        assertTrue(html.startsWith("<div class=\"chains\">chains:"), html);
        assertTrue(html.contains("stroke=\"" + HtmlReport.colour(0) + "\" stroke-width=\"3\"/></svg> 1, 9</span>"),
                html);
        assertTrue(html.contains("stroke=\"" + HtmlReport.colour(7) + "\" stroke-width=\"3\"/></svg> 8, 16</span>"),
                html);
        assertFalse(HtmlReport.chainLegend(2).contains(HtmlReport.colour(2)));
    }

    /** A long summary (the galaxy mixture's 104 quantities) scrolls in its own box; the verdict reads left-aligned. */
    @Test
    void longSummaryScrollsAndVerdictIsText() {
        List<FullParameterSummary> rows = new ArrayList<>();
        for (int p = 0; p <= HtmlReport.SCROLL_ROWS; p++) {
            double[][] draws = new double[2][50];
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < 50; i++) {
                    draws[c][i] = Math.sin(1.0 + i * 7.3 + c * 3.1 + p);
                }
            }
            rows.add(FullParameterSummary.of("f[" + (p + 1) + "]", draws));
        }
        Thresholds t = new Thresholds(1.01, 10);
        String longer = new HtmlReport("t").summary(rows, t).render();
        assertTrue(longer.contains("<div class=\"scroll\"><table>"), longer);
        assertTrue(longer.contains("<th class=\"text\">verdict</th>") && longer.contains("<td class=\"text\">"));
        assertTrue(longer.contains("th.text,td.text{text-align:left}"), "header and cells alike");
        String shorter = new HtmlReport("t").summary(rows.subList(0, 3), t).render();
        assertFalse(shorter.contains("<div class=\"scroll\">"), shorter);
    }
}
