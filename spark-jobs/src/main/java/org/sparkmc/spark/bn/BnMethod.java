package org.sparkmc.spark.bn;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.sparkmc.core.InvalidInputException;

/** How the {@code bn} job answers a query: which core algorithm runs, and where. */
public enum BnMethod {
    /** Likelihood weighting (core {@code LikelihoodWeighting}), sample blocks spread over executors. */
    LW("lw", "likelihood weighting"),
    /** Rejection sampling for evidence (core {@code RejectionSampling}), sample blocks spread over executors. */
    REJECTION("rejection", "rejection sampling"),
    /** Gibbs sampling over Markov blankets (core {@code GibbsSampling}), chains spread over executors. */
    GIBBS("gibbs", "Gibbs sampling"),
    /** Variable elimination on the driver only (core {@code VariableElimination}). */
    EXACT("exact", "variable elimination");

    private final String option;
    private final String description;

    BnMethod(String option, String description) {
        this.option = option;
        this.description = description;
    }

    /** The name on the command line and in outputs. */
    public String option() {
        return option;
    }

    public String description() {
        return description;
    }

    /** Whether the method draws weighted sample blocks (likelihood weighting or rejection). */
    public boolean weighted() {
        return this == LW || this == REJECTION;
    }

    /** @throws InvalidInputException naming the valid methods */
    public static BnMethod parse(String name) {
        for (BnMethod m : values()) {
            if (m.option.equalsIgnoreCase(name == null ? "" : name.trim())) {
                return m;
            }
        }
        throw new InvalidInputException("--method must be one of " + Arrays.stream(values()).map(BnMethod::option)
                .collect(Collectors.joining(", ")) + ", is '" + name + "'");
    }
}
