package org.sparkmc.spark.diagnose;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sparkmc.core.diagnostics.FullParameterSummary;

/**
 * When a parameter counts as converged: R-hat below {@code maxRhat} and bulk and tail ESS at least {@code minEss}.
 * Undefined diagnostics (posterior's NA, e.g. for a constant) do not count as failures.
 */
public record Thresholds(double maxRhat, double minEss) implements Serializable {

    /** Why a parameter fails, or an empty list. */
    public List<String> failures(FullParameterSummary s) {
        List<String> why = new ArrayList<>();
        if (s.rhat() >= maxRhat) {
            why.add(String.format(Locale.ROOT, "R-hat %.4f ≥ %.3f", s.rhat(), maxRhat));
        }
        if (s.essBulk() < minEss) {
            why.add(String.format(Locale.ROOT, "bulk ESS %.0f < %.0f", s.essBulk(), minEss));
        }
        if (s.essTail() < minEss) {
            why.add(String.format(Locale.ROOT, "tail ESS %.0f < %.0f", s.essTail(), minEss));
        }
        return why;
    }
}
