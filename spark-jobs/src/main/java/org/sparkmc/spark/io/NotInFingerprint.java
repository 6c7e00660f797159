package org.sparkmc.spark.io;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a component of a settings record that {@link Fingerprint} leaves out, so that a checkpoint resumes whatever
 * its value: one that changes no number (partitions, how steps are synchronised), one a resume may change on purpose
 * (how many rounds or sweeps, when to stop), or a built object whose settings the record holds beside it. The
 * record's Javadoc says which and why; every other component is in the fingerprint.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface NotInFingerprint {
}
