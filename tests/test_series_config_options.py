"""same_config_but_series_options (scripts/lib.sh): base and series configs
are the same config but for the options the series declares.

The i386 entry of check-build-matrix.sh failed on all 41 patches
(2026-11-27) because the base's .config, made from the series' by
olddefconfig, lacked CONFIG_KERNFS_KUNIT_TEST, which patch 40 declares; the
matrix and package-kernels.sh now compare with this helper.
"""
import pathlib
import subprocess

TOP = pathlib.Path(__file__).resolve().parent.parent


def same(tmp_path, base, series):
    a, b = tmp_path / "base.config", tmp_path / "series.config"
    a.write_text(base)
    b.write_text(series)
    script = (f'. "{TOP}/scripts/lib.sh"; '
              f'same_config_but_series_options "{a}" "{b}" && echo same || echo differ')
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip() == "same"


def test_the_series_declares_kernfs_kunit_test():
    p = subprocess.run(["bash", "-c", f'. "{TOP}/scripts/lib.sh"; series_config_options'],
                       capture_output=True, text=True)
    assert "KERNFS_KUNIT_TEST" in p.stdout.strip().split("|")


def test_only_the_series_options_may_differ(tmp_path):
    common = "CONFIG_PSI=y\n# CONFIG_MEMCG_V1 is not set\n"
    assert same(tmp_path, common, common + "CONFIG_KERNFS_KUNIT_TEST=y\n")
    assert same(tmp_path, common, common + "# CONFIG_KERNFS_KUNIT_TEST is not set\n")
    assert not same(tmp_path, common, common + "CONFIG_KUNIT=y\n")
    assert not same(tmp_path, common, "CONFIG_PSI=n\n# CONFIG_MEMCG_V1 is not set\n")
