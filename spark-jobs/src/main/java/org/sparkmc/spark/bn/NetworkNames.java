package org.sparkmc.spark.bn;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.Evidence;

/**
 * Checks the variable and state names a user gives ({@code --evidence}, {@code --query}) against a network, with
 * messages that say which option was wrong and list the valid names.
 */
final class NetworkNames {
    private NetworkNames() {
    }

    static int variable(BayesNet net, String name, String option) {
        int i = net.indexOf(name);
        if (i < 0) {
            throw new InvalidInputException(option + ": unknown variable '" + name + "'; network " + net.name()
                    + " has " + net.size() + " variables: " + String.join(", ", names(net)));
        }
        return i;
    }

    /** Parses "VAR=STATE,…" (blank: no evidence); unknown variables or states are named with the valid ones. */
    static Evidence evidence(BayesNet net, String spec) {
        if (spec == null || spec.isBlank()) {
            return Evidence.none(net);
        }
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                variable(net, pair.substring(0, eq).trim(), "--evidence");
            }
        }
        try {
            return Evidence.parse(net, spec);
        } catch (InvalidInputException e) {
            throw new InvalidInputException("--evidence: " + e.getMessage(), e);
        }
    }

    /** Query variable indices from names (each may itself be a comma-separated list); at least one, no repeats. */
    static int[] query(BayesNet net, List<String> names) {
        Set<String> seen = new LinkedHashSet<>();
        for (String item : names) {
            if (item.isBlank()) { // no names: refused below if no other item gives one
                continue;
            }
            for (String name : item.split(",", -1)) { // -1: a trailing comma leaves an empty entry too
                String n = name.trim();
                if (n.isEmpty()) { // as --evidence refuses one
                    throw new InvalidInputException("--query '" + item + "' has an empty entry (a comma too many?); "
                            + "expected variable names separated by commas");
                }
                if (!seen.add(n)) {
                    throw new InvalidInputException("--query names variable " + n + " twice");
                }
            }
        }
        if (seen.isEmpty()) {
            throw new InvalidInputException("--query VARIABLE is required (one or more; network " + net.name()
                    + " has: " + String.join(", ", names(net)) + ")");
        }
        return seen.stream().mapToInt(n -> variable(net, n, "--query")).toArray();
    }

    private static List<String> names(BayesNet net) {
        List<String> out = new ArrayList<>(net.size());
        for (int i = 0; i < net.size(); i++) {
            out.add(net.variable(i));
        }
        return out;
    }
}
