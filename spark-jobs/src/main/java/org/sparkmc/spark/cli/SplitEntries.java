package org.sparkmc.spark.cli;

import org.sparkmc.core.InvalidInputException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Refuses an empty entry in an option that takes comma-separated values ({@code --query "A,"}, {@code "A,,B"},
 * {@code --coefficients 1,2,}), on the command line and in a config file alike: picocli's split drops a trailing empty
 * entry and keeps an inner one, so a comma too many was either ignored or read as a value. A wholly blank value is
 * left to the job (it means none).
 */
final class SplitEntries {
    private SplitEntries() {
    }

    /** Every option of the parsed command (and its subcommand) given on the command line with a value split so. */
    static void check(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            for (OptionSpec option : p.matchedOptions()) {
                for (String value : option.originalStringValues()) {
                    check(option, value, "");
                }
            }
        }
    }

    /** One value of {@code option}; {@code where} starts the message (a config file's place, or nothing). */
    static void check(OptionSpec option, String value, String where) {
        String separator = option.splitRegex();
        if (separator == null || separator.isEmpty() || value == null || value.isBlank()) {
            return;
        }
        for (String entry : value.split(separator, -1)) {
            if (entry.isBlank()) {
                String label = option.paramLabel();
                throw new InvalidInputException(where + option.longestName() + " '" + value + "' has an empty entry "
                        + "(a comma too many?); expected " + label + "[" + separator + label + "...]");
            }
        }
    }
}
