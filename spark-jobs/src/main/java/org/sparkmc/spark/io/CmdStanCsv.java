package org.sparkmc.spark.io;

import java.util.List;
import java.util.Locale;

/**
 * Stan's CSV layout for one chain's draws, as CmdStan writes it: {@code #} comment lines with the run's settings,
 * a header row, one row per draw. Parameter names use CmdStan's dotted indices ({@code theta[1]} →
 * {@code theta.1}), which ArviZ's {@code from_cmdstan} and R's CmdStan readers turn back into arrays.
 */
public final class CmdStanCsv {
    private CmdStanCsv() {
    }

    /** {@code theta[1,2]} → {@code theta.1.2}. */
    public static String stanName(String name) {
        return name.replace("[", ".").replace(",", ".").replace("]", "").replace(" ", "");
    }

    /** {@code theta.1.2} → {@code theta[1,2]} (names without a numeric suffix are kept). */
    public static String bracketName(String name) {
        int dot = name.indexOf('.');
        if (dot < 0 || !name.substring(dot + 1).matches("\\d+(\\.\\d+)*")) {
            return name;
        }
        return name.substring(0, dot) + "[" + name.substring(dot + 1).replace('.', ',') + "]";
    }

    /**
     * One chain's file.
     *
     * @param rows draws [row][iteration] in the order of {@code names} (the sampler's columns, whose names end in
     *             {@code __}: lp__, accept_stat__, stepsize__, …, come first in the file, as CmdStan orders them)
     */
    public static String render(String model, String kernel, int chain, long seed, int warmup, List<String> names,
            double[][] rows) {
        int draws = rows.length == 0 ? 0 : rows[0].length;
        StringBuilder out = new StringBuilder();
        out.append("# stan_version_major = 2\n# stan_version_minor = 36\n# stan_version_patch = 0\n")
                .append("# model = ").append(model).append('\n')
                .append("# method = sample (Default)\n#   sample\n")
                .append("#     num_samples = ").append(draws).append('\n')
                .append("#     num_warmup = ").append(warmup).append('\n')
                .append("#     save_warmup = false\n#     thin = 1 (Default)\n")
                .append("#     algorithm = ").append(kernel).append(" (sparkmc)\n")
                .append("# id = ").append(chain).append('\n')
                .append("# random\n#   seed = ").append(seed).append('\n')
                .append("# output\n#   written by = sparkmc\n");
        int[] order = new int[names.size()];
        int k = 0;
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).endsWith("__")) {
                order[k++] = i;
            }
        }
        for (int i = 0; i < names.size(); i++) {
            if (!names.get(i).endsWith("__")) {
                order[k++] = i;
            }
        }
        for (int i = 0; i < order.length; i++) {
            out.append(i == 0 ? "" : ",").append(stanName(names.get(order[i])));
        }
        out.append('\n');
        for (int d = 0; d < draws; d++) {
            for (int i = 0; i < order.length; i++) {
                double v = rows[order[i]][d];
                out.append(i == 0 ? "" : ",").append(v == Math.rint(v) && Math.abs(v) < 1e15
                        ? Long.toString((long) v) : String.format(Locale.ROOT, "%.9g", v));
            }
            out.append('\n');
        }
        return out.toString();
    }
}
