package org.sparkmc.spark.bn;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.Thresholds;

/**
 * Judges Gibbs sampling's estimate of a state's probability, the mean of its indicator 1[X = s] over every kept draw,
 * against the exact probability p. R-hat cannot see a part of the states that no chain reaches (zeros in the tables
 * can cut the chains off from it; tables near 0 or 1 can hold them there for a long time), but the exact answer can.
 *
 * <p>The rules, with their false-failure rates for a chain that samples correctly:
 * <ul>
 *   <li>an indicator that varies fails when its mean is more than {@value #FAR} SEs from p, the SE being the one p
 *       implies, √(p(1 − p)/ESS) with the indicator's ESS (at most the draws): about 6e-7 where the state is
 *       visited often, and up to about 1e-5 for a state expected some ten times (a Poisson tail);</li>
 *   <li>an indicator the same in every draw fails when draws that independent would show it so with probability
 *       below {@value #UNLIKELY} ((1 − p)^N for a state never visited, p^N for one never left): autocorrelated
 *       draws show it so more often, so this errs towards passing. A state the exact answer makes impossible or
 *       certain always passes.</li>
 * </ul>
 */
final class GibbsExactCheck {
    /** An estimate this many SEs (implied by the exact probability) from it fails. */
    static final double FAR = 5;
    /** A constant indicator that independent draws would give with a smaller probability than this fails. */
    static final double UNLIKELY = 1e-6;

    private GibbsExactCheck() {
    }

    /**
     * Why the estimate disagrees with the exact probability, or null where it does not.
     *
     * @param draws      the kept draws over all chains
     * @param withZeros  whether any table of the network has a zero entry (for the message's likely cause)
     */
    static String failure(FullParameterSummary f, double exact, long draws, boolean withZeros) {
        String cause = withZeros ? "the chains may not reach every state: a table with zero entries can make Gibbs "
                + "sampling reducible" : "the chains move too slowly between states for this many draws: tables "
                + "near 0 or 1 can hold them in one region; run longer";
        if (Thresholds.constant(f)) {
            double logChance = draws * (f.mean() == 0 ? Math.log1p(-exact) : Math.log(exact));
            return logChance >= Math.log(UNLIKELY) ? null : String.format(Locale.ROOT, "the same in every draw of "
                    + "every chain (a state never visited, or never left), which %,d draws would show with "
                    + "probability %s at the exact %s (%s)", draws,
                    logChance == Double.NEGATIVE_INFINITY ? "0" : String.format(Locale.ROOT, "10^%.0f",
                            logChance / Math.log(10)),
                    new BigDecimal(exact).round(new MathContext(4)).stripTrailingZeros().toPlainString(), cause);
        }
        double ess = Double.isNaN(f.essMean()) ? draws : Math.min(f.essMean(), draws);
        double z = (f.mean() - exact) / Math.sqrt(exact * (1 - exact) / ess);
        return !(Math.abs(z) > FAR) ? null : String.format(Locale.ROOT, "%.4f is %.1f SE from the exact %.4f "
                + "(the SE √(p(1 − p)/ESS) at the exact p; %s)",
                f.mean(), z, exact, cause);
    }
}
