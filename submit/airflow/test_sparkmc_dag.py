"""Tests of the DAG's exit-code mapping, run by .ci/run: `python3 -m unittest discover -s submit/airflow`.

Airflow cannot be installed on the CI machines, so the few Airflow names the DAG imports are stood in for by minimal
modules with Airflow's contract for them: AirflowFailException subclasses AirflowException, and SparkSubmitOperator's
execute raises AirflowException("Cannot execute: <cmd>. Error code is: <code>.") when spark-submit fails.
"""
import importlib.util
import os
import sys
import types
import unittest


def _install_stand_ins():
    exceptions = types.ModuleType("airflow.exceptions")

    class AirflowException(Exception):
        pass

    class AirflowFailException(AirflowException):
        pass

    exceptions.AirflowException = AirflowException
    exceptions.AirflowFailException = AirflowFailException

    class DAG:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    class SparkSubmitOperator:
        exit_code = 0  # what the next execute's spark-submit "returns"

        def __init__(self, **kwargs):
            self.kwargs = kwargs
            self.application_args = kwargs.get("application_args")

        def execute(self, context):
            if SparkSubmitOperator.exit_code != 0:
                raise AirflowException("Cannot execute: spark-submit --class org.sparkmc.spark.cli.Main app.jar. "
                                       f"Error code is: {SparkSubmitOperator.exit_code}.")
            return None

        def __rshift__(self, other):
            return other

    airflow = types.ModuleType("airflow")
    airflow.DAG = DAG
    operators = types.ModuleType("airflow.providers.apache.spark.operators.spark_submit")
    operators.SparkSubmitOperator = SparkSubmitOperator
    sys.modules.update({
        "airflow": airflow,
        "airflow.exceptions": exceptions,
        "airflow.providers": types.ModuleType("airflow.providers"),
        "airflow.providers.apache": types.ModuleType("airflow.providers.apache"),
        "airflow.providers.apache.spark": types.ModuleType("airflow.providers.apache.spark"),
        "airflow.providers.apache.spark.operators": types.ModuleType("airflow.providers.apache.spark.operators"),
        "airflow.providers.apache.spark.operators.spark_submit": operators,
    })
    return exceptions, SparkSubmitOperator


EXCEPTIONS, STAND_IN = _install_stand_ins()
_spec = importlib.util.spec_from_file_location(
    "sparkmc_dag", os.path.join(os.path.dirname(os.path.abspath(__file__)), "sparkmc_dag.py"))
dag = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dag)


class ExitCodeMappingTest(unittest.TestCase):
    def run_with_exit_code(self, code):
        STAND_IN.exit_code = code
        return dag.lda.execute({})

    def test_success_passes(self):
        self.assertIsNone(self.run_with_exit_code(0))

    def test_bad_input_not_converged_and_out_of_memory_fail_without_retry(self):
        for code in (2, 3, 52):
            with self.assertRaises(EXCEPTIONS.AirflowFailException) as failure:
                self.run_with_exit_code(code)
            self.assertIn(f"sparkmc exit {code}", str(failure.exception))

    def test_a_refused_resume_names_the_checkpoint_to_delete(self):
        STAND_IN.exit_code = 2
        with self.assertRaises(EXCEPTIONS.AirflowFailException) as failure:
            dag.chains.execute({})
        self.assertIn("checkpoints/chains/{{ ds_nodash }} was saved", str(failure.exception))
        self.assertIn("delete the directory, then clear the task", str(failure.exception))
        with self.assertRaises(EXCEPTIONS.AirflowFailException) as no_checkpoint:
            dag.diagnose.execute({})
        self.assertNotIn("checkpoint", str(no_checkpoint.exception))

    def test_other_failures_stay_retryable(self):
        for code in (1, 137, 143):
            with self.assertRaises(EXCEPTIONS.AirflowException) as failure:
                self.run_with_exit_code(code)
            self.assertNotIsInstance(failure.exception, EXCEPTIONS.AirflowFailException)

    def test_exit_code_is_read_from_the_hook_message(self):
        self.assertEqual(2, dag.sparkmc_exit_code("Cannot execute: x. Error code is: 2."))
        self.assertIsNone(dag.sparkmc_exit_code("driver state FAILED"))

    def test_every_stage_maps_exit_codes(self):
        for task in (dag.chains, dag.diagnose, dag.lda):
            self.assertIsInstance(task, dag.SparkmcSubmitOperator)


if __name__ == "__main__":
    unittest.main()
