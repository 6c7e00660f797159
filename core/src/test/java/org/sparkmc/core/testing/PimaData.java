package org.sparkmc.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.model.LogisticRegression;

/**
 * The Pima data (532 women, MASS's Pima.tr + Pima.te) as the tests use them: an intercept column and the 7
 * predictors standardised, row-major, with the outcome {@code type} (1 = diabetic).
 *
 * @param design  row-major n × (1 + 7): 1, then the standardised predictors
 * @param outcome 0 or 1 per row
 * @param names   "w[intercept]", then "w[npreg]" … "w[age]"
 */
public record PimaData(double[] design, double[] outcome, List<String> names) {

    /** Reads {@code pima.csv} (header, 7 predictor columns, then the outcome) and standardises the predictors. */
    public static PimaData read(Path csv) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String[] header = lines.get(0).replace("\"", "").split(",");
        int n = lines.size() - 1;
        int p = header.length - 1;
        double[][] columns = new double[p][n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            String[] f = lines.get(i + 1).split(",");
            for (int j = 0; j < p; j++) {
                columns[j][i] = Double.parseDouble(f[j]);
            }
            y[i] = Double.parseDouble(f[p]);
        }
        for (int j = 0; j < p; j++) {
            columns[j] = LogisticRegression.standardised(columns[j]);
        }
        double[] design = new double[n * (p + 1)];
        for (int i = 0; i < n; i++) {
            design[i * (p + 1)] = 1;
            for (int j = 0; j < p; j++) {
                design[i * (p + 1) + j + 1] = columns[j][i];
            }
        }
        List<String> names = new ArrayList<>(List.of("w[intercept]"));
        for (int j = 0; j < p; j++) {
            names.add("w[" + header[j] + "]");
        }
        return new PimaData(design, y, List.copyOf(names));
    }

    /** Columns of the design, the intercept included. */
    public int columns() {
        return names.size();
    }

    /** The Bayesian logistic regression with N(0, 10²) priors on every coefficient. */
    public LogisticRegression model(boolean startAtMode) {
        return new LogisticRegression(design, outcome, names, 10, startAtMode);
    }
}
