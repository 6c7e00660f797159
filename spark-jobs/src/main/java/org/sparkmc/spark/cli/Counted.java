package org.sparkmc.spark.cli;

/** A count and its noun for messages: "1 round", "3 rounds", "1 partition". */
public final class Counted {
    private Counted() {
    }

    /** {@code n} and {@code noun}, with an "s" unless n is 1 (nouns whose plural is noun + "s" only). */
    public static String of(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
