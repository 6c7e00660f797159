package org.sparkmc.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.catalog.ModelCatalog;

/** ModelParameters records every name a model asks about, so a job can refuse keys no model reads. */
class ModelParametersTest {

    @Test
    void recordsEveryNameAskedAboutPresentOrNot() {
        ModelParameters p = new ModelParameters("t", Map.of("a", 1, "b", List.of(1, 2), "c", "x", "unread", 3));
        assertEquals(Set.of(), p.consulted());
        p.getDouble("a");
        p.getDoubleArray("b");
        p.value("c");
        p.getDouble("absent", 2);
        p.getBoolean("flag", true);
        p.asMap().get("unread");
        assertEquals(Set.of("a", "b", "c", "absent", "flag"), p.consulted());
    }

    @Test
    void everyBuiltInModelReadsItsParametersWhenBuilt() {
        ModelParameters p = new ModelParameters("t", Map.of("threshold", 4));
        ModelCatalog.create("bimodal", p);
        assertEquals(Set.of("threshold"), p.consulted());
        ModelParameters gmm = new ModelParameters("t", Map.of("n", 50, "K", 3, "alpha", 1, "kappa0", 0.01, "s0", 1,
                "data-seed", 2));
        ModelCatalog.create("gmm", gmm);
        assertEquals(true, gmm.consulted().containsAll(gmm.asMap().keySet()), gmm.consulted().toString());
    }

    @Test
    void aDeserializedCopyStartsAfresh() throws IOException, ClassNotFoundException {
        ModelParameters p = new ModelParameters("t", Map.of("a", 1));
        p.getDouble("a");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            ModelParameters copy = (ModelParameters) in.readObject();
            assertEquals(Set.of(), copy.consulted());
            assertEquals(1.0, copy.getDouble("a"));
            assertEquals(Set.of("a"), copy.consulted());
        }
    }

    /** Stan's matrix[N, D] arrives from JSON as a list of rows of numbers (integers or decimals). */
    @Test
    void aMatrixIsAListOfEqualRows() {
        ModelParameters p = new ModelParameters("data.json",
                Map.of("X", List.of(List.of(1, 2.5, 3), List.of(4, 5, 6.0))));
        double[][] x = p.getMatrix("X");
        assertArrayEquals(new double[] {1, 2.5, 3}, x[0]);
        assertArrayEquals(new double[] {4, 5, 6}, x[1]);
        assertEquals(Set.of("X"), p.consulted());
    }

    @Test
    void aRaggedOrMalformedMatrixIsRefusedNamingTheRowOrElement() {
        assertRefused(List.of(List.of(1, 2), List.of(3)), "data.json: row 2 of 'X' has 1 values but row 1 has 2");
        assertRefused(List.of(List.of(1, 2), 3), "data.json: row 2 of 'X' must be a list of numbers but is 3");
        assertRefused(List.of(List.of(1, "a")), "data.json: 'X[1][2]' must be a number but is the text 'a'");
        assertRefused(List.of(), "data.json: model parameter 'X' must be a matrix as a non-empty list of rows");
        assertRefused(7, "data.json: model parameter 'X' must be a matrix as a non-empty list of rows");
        InvalidInputException missing = assertThrows(InvalidInputException.class,
                () -> new ModelParameters("data.json", Map.of()).getMatrix("X"));
        assertTrue(missing.getMessage().contains("model parameter 'X' is missing"), missing.getMessage());
    }

    /**
     * A value out of a model's range is refused naming where it was given (a config file's line, a --param), what
     * it must be and what it is; a default passes, and so does a value in range.
     */
    @Test
    void aValueOutOfRangeIsRefusedWithWhereItWasGiven() {
        ModelParameters p = new ModelParameters("model 'ising'", Map.of("sigma", -1, "height", 0, "s", List.of(2, 0)),
                Map.of("sigma", "run.conf:7", "height", "--param height=0"));
        assertEquals("run.conf:7: model 'ising': model parameter 'sigma' must be a number > 0 but is '-1'",
                assertThrows(InvalidInputException.class, () -> p.getDoubleAbove("sigma", 2, 0)).getMessage());
        assertEquals("--param height=0: model 'ising': model parameter 'height' must be a whole number ≥ 1 but is '0'",
                assertThrows(InvalidInputException.class, () -> p.getInt("height", 64, 1)).getMessage());
        assertEquals("model 'ising': 's[2]' must be a number > 0.5 but is '0'",
                assertThrows(InvalidInputException.class, () -> p.getDoubleArrayAbove("s", 0.5)).getMessage());
        assertEquals(64, p.getInt("width", 64, 1));
        assertEquals(2.0, p.getDoubleAbove("J", 2, 0));
        assertEquals(-1.0, p.getDoubleAbove("sigma", -1.5));
    }

    /** Each built-in model refuses a scale of 0 with where it was given, before any sampling. */
    @Test
    void builtInModelsRefuseAScaleOfZeroWithItsOrigin() {
        Map<String, Map<String, Object>> cases = Map.of("ising_denoising", Map.of("sigma", 0),
                "gmm", Map.of("kappa0", 0),
                "logistic_regression", Map.of("prior-sd", 0, "predictors", "x", "outcome", "o", "x", List.of(1, 2, 4),
                        "o", List.of(0, 1, 1)),
                "rj_two_means", Map.of("y", List.of(1, 2), "sigma", 0),
                "rj_clustering", Map.of("sigma", 0),
                "rj_normal_mixture", Map.of("y", List.of(1, 2, 4), "h", 0));
        cases.forEach((model, values) -> {
            String bad = values.keySet().stream().filter(k -> values.get(k).equals(0)).findFirst().orElseThrow();
            ModelParameters p = new ModelParameters("model '" + model + "'", values, Map.of(bad, "m.conf:3"));
            String message = assertThrows(InvalidInputException.class, () -> ModelCatalog.create(model, p), model)
                    .getMessage();
            assertTrue(message.startsWith("m.conf:3: model '" + model + "': model parameter '" + bad + "' must be a "
                    + "number > 0 but is '0'"), message);
        });
    }

    private static void assertRefused(Object value, String message) {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new ModelParameters("data.json", Map.of("X", value)).getMatrix("X"));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    /**
     * The values a model uses: a parameter given at its default value and one left to it are the same model, and a
     * config file's 1120 is --param's 1120.0 (a resumed smc run was refused for --param level_variance=1469.1).
     */
    @Test
    void resolvedValuesFillInTheDefaultsTheModelTook() {
        ModelParameters given = new ModelParameters("p", java.util.Map.of("a", 1469.1, "b", 1120, "m", List.of(1, 2)));
        ModelParameters left = new ModelParameters("p", java.util.Map.of("b", 1120.0, "m", List.of(1.0, 2.0)));
        for (ModelParameters p : List.of(given, left)) {
            p.getDouble("a", 1469.1);
            p.getInt("b", 7, 0);
            p.getBoolean("c", true);
            p.getDoubleArray("m");
        }
        assertEquals(given.resolved(), left.resolved());
        assertEquals("{a=1469.1, b=1120.0, c=true, m=[1.0, 2.0]}", left.resolved().toString());
        ModelParameters other = new ModelParameters("p", java.util.Map.of("a", 1000.0));
        other.getDouble("a", 1469.1);
        assertEquals(java.util.Map.of("a", 1000.0), other.resolved());
        // A number read as a string (a class: model's own parsing) is one value whichever form it was given in.
        ModelParameters fromFile = new ModelParameters("p", java.util.Map.of("s", 1120));
        ModelParameters fromLine = new ModelParameters("p", java.util.Map.of("s", 1120.0));
        assertEquals("1120", fromFile.getString("s"));
        fromLine.getString("s");
        assertEquals(fromFile.resolved(), fromLine.resolved());
    }
}
