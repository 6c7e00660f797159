package org.sparkmc.spark.diagnose;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.ParameterSummary;

/**
 * When a parameter counts as converged: R-hat below {@code maxRhat} and bulk and tail ESS at least {@code minEss}.
 * The one verdict of {@code diagnose}, {@code chains}, {@code bn}'s Gibbs and the reports.
 *
 * <p>Where posterior gives NA: a parameter constant in every draw of every chain (to within its tolerance, as a
 * model's fixed quantity is) passes. Draws that vary but leave R-hat or the bulk ESS undefined fail: chains too short
 * to split, or each chain stuck at a value of its own where R-hat too is undefined (with ranks or folds that tie;
 * otherwise R-hat is ∞, posterior's Inf, and fails as any R-hat above the bound does). An undefined tail ESS alone
 * does not fail: a discrete or 0/1 quantity whose 5% or 95% quantile is its minimum or maximum has one, as in
 * posterior, and the bulk ESS still judges it. Draws whose {@code lp__} is constant too, with every other quantity,
 * fail as a whole: no chain moved (chains stuck at the start they share passed as constants, "converged").
 */
public record Thresholds(double maxRhat, double minEss) implements Serializable {

    /** The log density's column, which varies whenever a chain moves. */
    public static final String LOG_DENSITY = "lp__";

    /** Why draws in which nothing moved fail. */
    public static final String NONE_MOVED = "no chain moved: lp__ and every parameter are the same in every draw of "
            + "every chain (stuck at their start: a kernel that never accepts, or a step size far too large)";

    /** Below this sd the draws are constant to posterior's tolerance (its range test, 2^-52; sd ≤ range). */
    private static final double CONSTANT_SD = 0x1.0p-52;

    /** Why a parameter fails, or an empty list. */
    public List<String> failures(FullParameterSummary s) {
        return failures(s.brief());
    }

    /** Why a parameter fails, or an empty list. */
    public List<String> failures(ParameterSummary s) {
        List<String> why = new ArrayList<>();
        if (constant(s)) {
            return why;
        }
        if (Double.isNaN(s.rhat())) {
            why.add("R-hat undefined (NA) though the draws vary: chains too short to split, or each chain stuck at "
                    + "a value of its own");
        } else if (s.rhat() == Double.POSITIVE_INFINITY) { // posterior's Inf: "%.4f" wrote Infinity
            why.add(String.format(Locale.ROOT, "R-hat Inf ≥ %.3f (each chain stuck at a value of its own)", maxRhat));
        } else if (s.rhat() >= maxRhat) {
            why.add(String.format(Locale.ROOT, "R-hat %.4f ≥ %.3f", s.rhat(), maxRhat));
        }
        if (Double.isNaN(s.essBulk())) {
            why.add("bulk ESS undefined (NA): too few draws per chain");
        } else if (s.essBulk() < minEss) {
            why.add(String.format(Locale.ROOT, "bulk ESS %.0f < %.0f", s.essBulk(), minEss));
        }
        if (s.essTail() < minEss) {
            why.add(String.format(Locale.ROOT, "tail ESS %.0f < %.0f", s.essTail(), minEss));
        }
        return why;
    }

    /** Whether every parameter passes, and some chain moved. */
    public boolean allPass(List<ParameterSummary> summaries) {
        return failing(summaries).isEmpty();
    }

    /**
     * Why each failing quantity fails, by name in the summaries' order; when no chain moved ({@link #noneMoved}),
     * {@code lp__} fails with {@link #NONE_MOVED}.
     */
    public Map<String, List<String>> failing(List<ParameterSummary> summaries) {
        Map<String, List<String>> failing = new LinkedHashMap<>();
        for (ParameterSummary s : summaries) {
            List<String> why = failures(s);
            if (!why.isEmpty()) {
                failing.put(s.name(), why);
            }
        }
        if (noneMoved(summaries)) {
            failing.put(LOG_DENSITY, List.of(NONE_MOVED));
        }
        return failing;
    }

    /** {@link #failing(List)} of full summaries. */
    public Map<String, List<String>> failingOfFull(List<FullParameterSummary> summaries) {
        return failing(summaries.stream().map(FullParameterSummary::brief).toList());
    }

    /**
     * Whether no chain moved: {@code lp__} and every other quantity the same in every draw of every chain. Each
     * passes alone as a constant would; together they say the chains never left a start they share.
     */
    public static boolean noneMoved(List<ParameterSummary> summaries) {
        return summaries.stream().anyMatch(s -> s.name().equals(LOG_DENSITY))
                && summaries.stream().allMatch(Thresholds::constant);
    }

    /** Whether the draws were the same in every draw of every chain, so that posterior's diagnostics are NA. */
    public static boolean constant(ParameterSummary s) {
        return Double.isNaN(s.rhat()) && s.sd() < CONSTANT_SD;
    }

    /** {@link #constant(ParameterSummary)} of the full summary. */
    public static boolean constant(FullParameterSummary s) {
        return constant(s.brief());
    }
}
