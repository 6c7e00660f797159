package org.sparkmc.core.bayesnet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.sparkmc.core.InvalidInputException;

/**
 * Exact inference by variable elimination (Zhang &amp; Poole 1994; Dechter 1996): restrict every table to the
 * evidence, then sum the other variables out one at a time, each time multiplying only the factors that mention
 * it, in a greedy order that creates the smallest factor first. The reference for the samplers' tests and the
 * {@code exact} option for small networks; networks whose elimination needs a factor of more than
 * {@value #MAX_FACTOR_ENTRIES} entries (or a given limit) are refused.
 */
public final class VariableElimination {
    /** The largest intermediate factor allowed by default (16M entries, 128 MB). */
    public static final long MAX_FACTOR_ENTRIES = 1L << 24;

    private VariableElimination() {
    }

    /**
     * The exact posterior marginal P(X_query | e) (standard errors 0).
     *
     * @throws InvalidInputException if P(e) = 0 or the network is too large for exact inference
     */
    public static Marginal posterior(BayesNet net, Evidence evidence, int query) {
        return posterior(net, evidence, query, MAX_FACTOR_ENTRIES);
    }

    /** As {@link #posterior(BayesNet, Evidence, int)}, refusing factors beyond {@code maxFactorEntries}. */
    public static Marginal posterior(BayesNet net, Evidence evidence, int query, long maxFactorEntries) {
        Objects.requireNonNull(net, "net");
        WeightedSampling.checkEvidence(net, evidence);
        if (query < 0 || query >= net.size()) {
            throw new IllegalArgumentException("query variable index " + query + " is out of range");
        }
        double[] p;
        int k = net.cardinality(query);
        if (evidence.isObserved(query)) {
            if (eliminateAllBut(net, evidence, -1, maxFactorEntries).values[0] == 0) {
                throw zeroEvidence(net, evidence);
            }
            p = new double[k];
            p[evidence.state(query)] = 1;
        } else {
            Factor f = eliminateAllBut(net, evidence, query, maxFactorEntries);
            double z = 0;
            for (double v : f.values) {
                z += v;
            }
            if (!(z > 0)) {
                throw zeroEvidence(net, evidence);
            }
            p = new double[k];
            for (int s = 0; s < k; s++) {
                p[s] = f.values[s] / z;
            }
        }
        return new Marginal(net.variable(query), net.states(query), p, new double[k], Double.POSITIVE_INFINITY, 0);
    }

    /**
     * P(e), the probability of the evidence (1 for no evidence).
     *
     * @throws InvalidInputException if the network is too large for exact inference
     */
    public static double probabilityOfEvidence(BayesNet net, Evidence evidence) {
        WeightedSampling.checkEvidence(net, evidence);
        Factor f = eliminateAllBut(net, evidence, -1, MAX_FACTOR_ENTRIES);
        return f.values[0];
    }

    private static InvalidInputException zeroEvidence(BayesNet net, Evidence evidence) {
        return new InvalidInputException("the evidence " + evidence.describe(net) + " has probability zero under the"
            + " network " + net.name());
    }

    private static Factor eliminateAllBut(BayesNet net, Evidence evidence, int keep, long maxFactorEntries) {
        List<Factor> factors = new ArrayList<>();
        for (int v = 0; v < net.size(); v++) {
            int[] ps = net.parentsView(v);
            int[] vars = Arrays.copyOf(ps, ps.length + 1);
            vars[ps.length] = v;
            Factor f = new Factor(vars, net, net.tableView(v).clone());
            for (int u : vars) {
                if (evidence.isObserved(u)) {
                    f = f.restrict(u, evidence.state(u), net);
                }
            }
            factors.add(f);
        }
        TreeSet<Integer> remaining = new TreeSet<>();
        for (int v = 0; v < net.size(); v++) {
            if (v != keep && !evidence.isObserved(v)) {
                remaining.add(v);
            }
        }
        while (!remaining.isEmpty()) {
            int best = -1;
            long bestSize = Long.MAX_VALUE;
            for (int v : remaining) {
                long size = unionSize(factors, v, net);
                if (size < bestSize) {
                    bestSize = size;
                    best = v;
                }
            }
            if (bestSize > maxFactorEntries) {
                throw new InvalidInputException("network " + net.name() + " is too large for exact inference:"
                    + " variable elimination would need a factor of " + bestSize + " entries");
            }
            remaining.remove(best);
            List<Factor> with = new ArrayList<>();
            List<Factor> without = new ArrayList<>();
            for (Factor f : factors) {
                (f.mentions(best) ? with : without).add(f);
            }
            without.add(Factor.sumProduct(with, best, net));
            factors = without;
        }
        return Factor.sumProduct(factors, -1, net);
    }

    private static long unionSize(List<Factor> factors, int v, BayesNet net) {
        TreeSet<Integer> union = new TreeSet<>();
        for (Factor f : factors) {
            if (f.mentions(v)) {
                for (int u : f.vars) {
                    union.add(u);
                }
            }
        }
        long size = 1;
        for (int u : union) {
            size *= net.cardinality(u);
        }
        return size;
    }

    /** A table over some variables, the last varying fastest. */
    private static final class Factor {
        final int[] vars;
        final int[] card;
        final double[] values;

        Factor(int[] vars, BayesNet net, double[] values) {
            this.vars = vars;
            this.card = new int[vars.length];
            for (int j = 0; j < vars.length; j++) {
                card[j] = net.cardinality(vars[j]);
            }
            this.values = values;
        }

        boolean mentions(int v) {
            for (int u : vars) {
                if (u == v) {
                    return true;
                }
            }
            return false;
        }

        Factor restrict(int v, int state, BayesNet net) {
            int pos = -1;
            for (int j = 0; j < vars.length; j++) {
                if (vars[j] == v) {
                    pos = j;
                }
            }
            int[] nv = new int[vars.length - 1];
            for (int j = 0, k = 0; j < vars.length; j++) {
                if (j != pos) {
                    nv[k++] = vars[j];
                }
            }
            int inner = 1;
            for (int j = pos + 1; j < vars.length; j++) {
                inner *= card[j];
            }
            int outer = values.length / (inner * card[pos]);
            double[] out = new double[outer * inner];
            for (int o = 0; o < outer; o++) {
                System.arraycopy(values, (o * card[pos] + state) * inner, out, o * inner, inner);
            }
            return new Factor(nv, net, out);
        }

        /** Π factors, with variable v summed out (v = −1: nothing summed out, all variables kept). */
        static Factor sumProduct(List<Factor> factors, int v, BayesNet net) {
            TreeSet<Integer> union = new TreeSet<>();
            for (Factor f : factors) {
                for (int u : f.vars) {
                    union.add(u);
                }
            }
            int[] all = union.stream().mapToInt(Integer::intValue).toArray();
            int[] allCard = new int[all.length];
            int size = 1;
            for (int j = 0; j < all.length; j++) {
                allCard[j] = net.cardinality(all[j]);
                size *= allCard[j];
            }
            // For each factor, the stride of each union variable in it (0 if absent).
            int[][] strides = new int[factors.size()][all.length];
            for (int f = 0; f < factors.size(); f++) {
                Factor fac = factors.get(f);
                int stride = 1;
                for (int j = fac.vars.length - 1; j >= 0; j--) {
                    strides[f][Arrays.binarySearch(all, fac.vars[j])] = stride;
                    stride *= fac.card[j];
                }
            }
            int pos = v < 0 ? -1 : Arrays.binarySearch(all, v);
            int[] kept = pos < 0 ? all : new int[all.length - 1];
            if (pos >= 0) {
                for (int j = 0, k = 0; j < all.length; j++) {
                    if (j != pos) {
                        kept[k++] = all[j];
                    }
                }
            }
            int outSize = pos < 0 ? size : size / allCard[pos];
            double[] out = new double[outSize];
            int[] state = new int[all.length];
            int[] index = new int[factors.size()];
            for (int e = 0; e < size; e++) {
                double prod = 1;
                for (int f = 0; f < index.length; f++) {
                    prod *= factors.get(f).values[index[f]];
                }
                int o = 0;
                for (int j = 0; j < all.length; j++) {
                    if (j != pos) {
                        o = o * allCard[j] + state[j];
                    }
                }
                out[o] += prod;
                // Odometer step, last variable fastest.
                for (int j = all.length - 1; j >= 0; j--) {
                    state[j]++;
                    for (int f = 0; f < index.length; f++) {
                        index[f] += strides[f][j];
                    }
                    if (state[j] < allCard[j]) {
                        break;
                    }
                    for (int f = 0; f < index.length; f++) {
                        index[f] -= strides[f][j] * allCard[j];
                    }
                    state[j] = 0;
                }
            }
            return new Factor(kept, net, out);
        }
    }
}
