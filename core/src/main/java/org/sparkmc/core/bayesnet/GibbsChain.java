package org.sparkmc.core.bayesnet;

/**
 * The kept draws of one Gibbs chain on a network: {@code draws[q][t]} is the state index of the q-th query
 * variable after sweep t (after warm-up).
 */
public record GibbsChain(int chain, int[] query, int[][] draws) {
    /** The number of kept draws. */
    public int length() {
        return draws.length == 0 ? 0 : draws[0].length;
    }

    /** The 0/1 trace of X_q = s, e.g. for R-hat and ESS across chains. */
    public double[] indicator(int q, int s) {
        double[] out = new double[length()];
        int[] d = draws[q];
        for (int t = 0; t < out.length; t++) {
            out[t] = d[t] == s ? 1 : 0;
        }
        return out;
    }
}
