package org.sparkmc.core.bayesnet;

/**
 * A short BIF file asking for a huge table: one node with many binary parents. 26 parents ran the bn job out of
 * memory and 40 overflowed an int (exit 1); both are refused before the table is allocated.
 */
public final class WideNetwork {
    private WideNetwork() {
    }

    /**
     * Binary roots V0…V(n−1) and a binary V(n) with all of them as parents, its table's rows all from one
     * {@code default} line (its probability block starts on line 2n + 3).
     */
    public static String bif(int parents) {
        StringBuilder bif = new StringBuilder("network wide { }\n");
        for (int i = 0; i <= parents; i++) {
            bif.append("variable V").append(i).append(" { type discrete [ 2 ] { a, b }; }\n");
        }
        for (int i = 0; i < parents; i++) {
            bif.append("probability ( V").append(i).append(" ) { table 0.5, 0.5; }\n");
        }
        bif.append("probability ( V").append(parents).append(" | ");
        for (int i = 0; i < parents; i++) {
            bif.append(i == 0 ? "V" : ", V").append(i);
        }
        return bif.append(" ) {\n  default 0.5, 0.5;\n}\n").toString();
    }
}
