package org.sparkmc.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.catalog.SmcModelCatalog;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelDriver.TotalsSync;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.spark.chains.ChainsConfig;
import org.sparkmc.spark.io.Fingerprint;
import org.sparkmc.spark.io.NotInFingerprint;
import org.sparkmc.spark.lda.LdaConfig;
import org.sparkmc.spark.lda.LdaMode;
import org.sparkmc.spark.smc.SmcCommand;
import org.sparkmc.spark.smc.SmcConfig;
import org.sparkmc.spark.sync.SyncVia;

/**
 * Each job's checkpoint fingerprint follows its settings records: changing any one component not marked
 * {@link NotInFingerprint} (nested records' components included) changes the fingerprint under that component's
 * name, and changing one so marked does not. The components are found by reflection, so an option added to a record
 * is covered here without a line of this test changing; one of a type the fingerprint cannot spell fails it.
 */
class ResumeFingerprintTest {

    static Stream<Arguments> jobs() {
        Target bimodal = ModelCatalog.create("bimodal", ModelParameters.empty());
        ChainsConfig chains = new ChainsConfig("bimodal", bimodal, "0f", "rwm",
                KernelCatalog.create("rwm", new KernelSettings(1, true, Double.NaN), bimodal), 1, true, Double.NaN, 4,
                100, 50, 10, 400, 1.01, 7, 2, 1000, SyncVia.AUTO);
        SmcConfig smc = new SmcConfig(SmcModelCatalog.create("local-level", "bootstrap", ModelParameters.empty()),
                10000, SmcOptions.defaults(), 1, 7, 25, null, SyncVia.AUTO);
        LdaConfig lda = new LdaConfig(new LdaPriors(10, 0.1, 0.01), LdaKernel.SPARSE_GIBBS, 20, 1, 4, 2, 7, 10, 5,
                10, 20, 25, 1, 1, 0, 0, SyncVia.AUTO, LdaMode.AUTO, TotalsSync.SWEEP);
        return Stream.of(
                Arguments.of("chains", List.of(chains)),
                Arguments.of("smc", List.of(smc, new SmcCommand.Sources("local-level", "bootstrap", "0f", null,
                        "flow"))),
                Arguments.of("lda", List.of(lda, new LdaConfig.Resolved(LdaMode.BROADCAST, null),
                        new LdaConfig.Data(100, 5000, 300, "00000000000000ff", "0f"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void everyComponentButTheMarkedOnesChangesTheFingerprint(String job, List<Record> parts) {
        String before = Fingerprint.of(parts.toArray(Record[]::new));
        List<String> covered = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            int at = i;
            vary(parts.get(i), "", true, (path, in, changed) -> {
                List<Record> copy = new ArrayList<>(parts);
                copy.set(at, changed);
                String after = Fingerprint.of(copy.toArray(Record[]::new));
                if (in) {
                    assertNotEquals(before, after, job + ": " + path + " changed, the fingerprint did not");
                    String name = Fingerprint.optionName(path.substring(path.lastIndexOf('.') + 1));
                    assertTrue(after.contains(" " + name + "="), job + ": " + name + " missing from " + after);
                    covered.add(name);
                } else {
                    assertEquals(before, after, job + ": " + path + " is marked @NotInFingerprint");
                }
            });
        }
        assertTrue(covered.contains("seed"), job + ": the seed is in every fingerprint: " + covered);
    }

    /** What {@link #vary} does with each copy of the record with one component changed. */
    private interface Check {
        void accept(String path, boolean inFingerprint, Record changed);
    }

    /**
     * Hands {@code check} a copy of {@code record} for each of its components changed (a nested record's own
     * components each changed in turn), with whether that component is in the fingerprint.
     */
    private static void vary(Record record, String prefix, boolean in, Check check) {
        RecordComponent[] components = record.getClass().getRecordComponents();
        for (int c = 0; c < components.length; c++) {
            RecordComponent component = components[c];
            boolean inFingerprint = in && !component.isAnnotationPresent(NotInFingerprint.class);
            Object value = get(record, component);
            String path = prefix + component.getName();
            int index = c;
            if (value instanceof Record nested) {
                vary(nested, path + ".", inFingerprint, (p, i, changed) -> check.accept(p, i,
                        with(record, index, changed)));
            } else {
                check.accept(path, inFingerprint, with(record, index, changed(component.getType(), value)));
            }
        }
    }

    /** Another value of the type: the next number or constant, the negation, a longer text; null for an object. */
    private static Object changed(Class<?> type, Object value) {
        if (type == int.class) {
            return (int) value + 1;
        } else if (type == long.class) {
            return (long) value + 1;
        } else if (type == double.class) {
            return Double.isNaN((double) value) ? 0.5 : (double) value + 0.25;
        } else if (type == boolean.class) {
            return !(boolean) value;
        } else if (type == String.class) {
            return value == null ? "x" : value + "x";
        } else if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            return value == null ? constants[0] : constants[(((Enum<?>) value).ordinal() + 1) % constants.length];
        }
        return null;
    }

    private static Record with(Record record, int index, Object value) {
        RecordComponent[] components = record.getClass().getRecordComponents();
        Object[] args = new Object[components.length];
        for (int c = 0; c < components.length; c++) {
            args[c] = c == index ? value : get(record, components[c]);
        }
        try {
            Constructor<?> canonical = record.getClass().getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            canonical.setAccessible(true);
            return (Record) canonical.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(record.getClass() + " with " + components[index].getName() + " = "
                    + value, e);
        }
    }

    private static Object get(Record record, RecordComponent component) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
