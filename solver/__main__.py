"""``python -m solver``: value a sample joker hand's rows and settle a sample deal."""
import solver

HAND_ROWS = ("7h 7d 2c", "As As Qs Js Ts", "Ks Kh Kd Kc 2s")
DEAL = [HAND_ROWS, ("7s 7c 2h", "8h 8d 3c 4c 5c", "9h 9d 9s Qh Qd"),
        ("2d 3h 4s", "5h 6d 8s 9c Jd", "Th Td Tc Qc Ad"),
        ("3d 4h 5d", "6h 6c 3s 4d 8c", "Jh Jc Js 5s 6s")]


def main() -> None:
    for name, row in zip(("front", "middle", "back"), HAND_ROWS):
        print(f"{name:6s} {row:16s} {solver.row_value(row, 'joker')}")
    print("legal:", solver.is_legal(*HAND_ROWS, "joker"))
    print(solver.settle(DEAL, "joker", detail=True))


if __name__ == "__main__":
    main()
