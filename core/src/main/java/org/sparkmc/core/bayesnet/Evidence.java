package org.sparkmc.core.bayesnet;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.sparkmc.core.InvalidInputException;

/** Observed states of some variables of a network: state index per variable, −1 where unobserved. Immutable. */
public final class Evidence implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] observed;

    private Evidence(int[] observed) {
        this.observed = observed;
    }

    /** No evidence. */
    public static Evidence none(BayesNet net) {
        int[] o = new int[net.size()];
        Arrays.fill(o, -1);
        return new Evidence(o);
    }

    /**
     * Parses "VAR=STATE,VAR=STATE" (spaces around names allowed; an empty or blank string is no evidence).
     *
     * @throws InvalidInputException for a malformed pair, an unknown variable or state, or a variable given twice
     */
    public static Evidence parse(BayesNet net, String spec) {
        int[] o = new int[net.size()];
        Arrays.fill(o, -1);
        if (spec == null || spec.isBlank()) {
            return new Evidence(o);
        }
        for (String pair : spec.split(",", -1)) { // -1: a trailing comma leaves an empty entry, refused as ',,' is
            int eq = pair.indexOf('=');
            if (pair.isBlank()) {
                throw new InvalidInputException("evidence '" + spec + "' has an empty entry (a comma too many?); "
                        + "expected VARIABLE=STATE pairs separated by commas");
            }
            if (eq < 0 || pair.indexOf('=', eq + 1) >= 0) {
                throw new InvalidInputException("evidence '" + pair.trim() + "' is not of the form VARIABLE=STATE");
            }
            String variable = pair.substring(0, eq).trim();
            String state = pair.substring(eq + 1).trim();
            if (variable.isEmpty() || state.isEmpty()) {
                throw new InvalidInputException("evidence '" + pair.trim() + "' names no " + (variable.isEmpty()
                        ? "variable" : "state") + "; expected VARIABLE=STATE");
            }
            set(net, o, variable, state);
        }
        return new Evidence(o);
    }

    /** Evidence from variable names to state names. */
    public static Evidence of(BayesNet net, Map<String, String> states) {
        int[] o = new int[net.size()];
        Arrays.fill(o, -1);
        states.forEach((v, s) -> set(net, o, v, s));
        return new Evidence(o);
    }

    private static void set(BayesNet net, int[] o, String variable, String state) {
        int i = net.requireVariable(variable);
        if (o[i] >= 0) {
            throw new InvalidInputException("evidence gives variable " + variable + " twice");
        }
        o[i] = net.requireState(i, state);
    }

    /** The observed state of variable i, or −1. */
    public int state(int i) {
        return observed[i];
    }

    public boolean isObserved(int i) {
        return observed[i] >= 0;
    }

    /** The number of observed variables. */
    public int count() {
        return (int) Arrays.stream(observed).filter(s -> s >= 0).count();
    }

    /** The number of variables of the network this evidence belongs to. */
    public int networkSize() {
        return observed.length;
    }

    int[] view() {
        return observed;
    }

    void requireNetwork(BayesNet net) {
        if (observed.length != net.size()) {
            throw new IllegalArgumentException("the evidence belongs to a network of " + observed.length
                + " variables, not " + net.size());
        }
    }

    /**
     * Refuses evidence that one observed variable's own table rules out ({@link BayesNet#rulesOut}): it has
     * probability zero. One pass over the observed variables' tables; evidence that only several tables together
     * rule out passes, and is found by exact inference or by the samplers (every weight zero).
     *
     * @throws InvalidInputException naming the variable, its state and its parents
     */
    public void requireNotRuledOut(BayesNet net) {
        requireNetwork(net);
        for (int i = 0; i < observed.length; i++) {
            if (net.rulesOut(i, this)) {
                List<String> given = new ArrayList<>();
                List<String> free = new ArrayList<>();
                for (int p : net.parents(i)) {
                    (observed[p] >= 0 ? given : free).add(observed[p] >= 0 ? net.variable(p) + "="
                            + net.state(p, observed[p]) : net.variable(p));
                }
                String parents = given.isEmpty() && free.isEmpty() ? "" : " given " + String.join(", ", given)
                        + (free.isEmpty() ? "" : (given.isEmpty() ? "" : " and ") + "any state of "
                        + String.join(", ", free));
                throw new InvalidInputException("the evidence " + describe(net) + " has probability zero under the"
                        + " network " + net.name() + ": " + net.variable(i) + "=" + net.state(i, observed[i])
                        + " has probability 0 in its table" + parents);
            }
        }
    }

    /** "VAR=STATE,…" for messages and outputs. */
    public String describe(BayesNet net) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < observed.length; i++) {
            if (observed[i] >= 0) {
                parts.add(net.variable(i) + "=" + net.state(i, observed[i]));
            }
        }
        return String.join(",", parts);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Evidence e && Arrays.equals(observed, e.observed);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(observed);
    }
}
